extension PointCloud {
  /// The points whose `keep` flag is set, every field and attribute with them, in order.
  public func subset(keeping keep: [Bool]) -> PointCloud {
    precondition(keep.count == count, "one flag a point")
    let indices = keep.indices.filter { keep[$0] }
    return subset(indices: indices)
  }

  /// The points at `indices` (in that order), every field and attribute with them.
  public func subset(indices: [Int]) -> PointCloud {
    SubsetGather(indices: indices, stop: nil).cloud(of: self)
  }

  /// `subset(keeping:)` that asks `stop` every few thousand points of each field, for
  /// an export's steps: nil once it says to stop.
  func subset(keeping keep: [Bool], stop: StopCheck?) -> PointCloud? {
    precondition(keep.count == count, "one flag a point")
    var indices: [Int] = []
    for index in keep.indices where keep[index] {
      if StopChecks.due(stop, at: index) { return nil }
      indices.append(index)
    }
    return subset(indices: indices, stop: stop)
  }

  /// `subset(indices:)` that asks `stop` every few thousand points of each field: nil
  /// once it says to stop.
  public func subset(indices: [Int], stop: StopCheck?) -> PointCloud? {
    let gather = SubsetGather(indices: indices, stop: stop)
    let cloud = gather.cloud(of: self)
    return gather.stopped ? nil : cloud
  }
}

/// Copies the values at some indices out of every field of a cloud, asking a stop check
/// as it goes; after a stop the fields it gathers are empty.
private final class SubsetGather {
  let indices: [Int]
  let stop: StopCheck?
  private(set) var stopped = false

  init(indices: [Int], stop: StopCheck?) {
    self.indices = indices
    self.stop = stop
  }

  func cloud(of source: PointCloud) -> PointCloud {
    PointCloud(
      positions: pick(source.positions), colors: source.colors.map { pick($0) },
      normals: source.normals.map { pick($0) },
      attributes: source.attributes.map { attribute in
        PointAttribute(name: attribute.name, values: column(attribute.values))
      })
  }

  private func column(_ values: AttributeValues) -> AttributeValues {
    switch values {
    case .int8(let v): .int8(pick(v))
    case .uint8(let v): .uint8(pick(v))
    case .int16(let v): .int16(pick(v))
    case .uint16(let v): .uint16(pick(v))
    case .int32(let v): .int32(pick(v))
    case .uint32(let v): .uint32(pick(v))
    case .float32(let v): .float32(pick(v))
    case .float64(let v): .float64(pick(v))
    }
  }

  private func pick<T>(_ values: [T]) -> [T] {
    guard let stop else { return indices.map { values[$0] } }
    guard !stopped else { return [] }
    var picked: [T] = []
    picked.reserveCapacity(indices.count)
    for (k, index) in indices.enumerated() {
      if StopChecks.due(stop, at: k) {
        stopped = true
        return []
      }
      picked.append(values[index])
    }
    return picked
  }
}
