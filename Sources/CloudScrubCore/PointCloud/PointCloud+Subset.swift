extension PointCloud {
  /// The points whose `keep` flag is set, every field and attribute with them, in order.
  public func subset(keeping keep: [Bool]) -> PointCloud {
    precondition(keep.count == count, "one flag a point")
    let indices = keep.indices.filter { keep[$0] }
    return subset(indices: indices)
  }

  /// The points at `indices` (in that order), every field and attribute with them.
  public func subset(indices: [Int]) -> PointCloud {
    func pick<T>(_ values: [T]) -> [T] { indices.map { values[$0] } }
    return PointCloud(
      positions: pick(positions), colors: colors.map(pick), normals: normals.map(pick),
      attributes: attributes.map { attribute in
        let values: AttributeValues
        switch attribute.values {
        case .int8(let v): values = .int8(pick(v))
        case .uint8(let v): values = .uint8(pick(v))
        case .int16(let v): values = .int16(pick(v))
        case .uint16(let v): values = .uint16(pick(v))
        case .int32(let v): values = .int32(pick(v))
        case .uint32(let v): values = .uint32(pick(v))
        case .float32(let v): values = .float32(pick(v))
        case .float64(let v): values = .float64(pick(v))
        }
        return PointAttribute(name: attribute.name, values: values)
      })
  }
}
