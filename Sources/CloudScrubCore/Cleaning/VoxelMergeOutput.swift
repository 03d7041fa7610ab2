import Foundation

/// Building the merged cloud from the buckets' voxels.
enum VoxelMergeOutput {
  static let confidenceName = "confidence"

  /// A cloud with no points and the same fields as `cloud`.
  static func empty(like cloud: PointCloud) -> PointCloud {
    cloud.subset(indices: [])
  }

  /// Output position of each voxel: the rank of its first point among all voxels' first
  /// points, read off a bitmap over the input with a prefix count a word.
  struct FirstPointRanks: Sendable {
    private let words: [UInt64]
    private let before: [Int]

    init<Key>(pointCount: Int, voxels: [VoxelBucketVoxels<Key>]) {
      var words = [UInt64](repeating: 0, count: (pointCount + 63) / 64)
      for bucket in voxels {
        for slot in 0..<bucket.count {
          let first = bucket.records[slot].firstIndex
          words[first >> 6] |= 1 << UInt64(first & 63)
        }
      }
      var before = [Int](repeating: 0, count: words.count)
      var total = 0
      for (index, word) in words.enumerated() {
        before[index] = total
        total += word.nonzeroBitCount
      }
      self.words = words
      self.before = before
    }

    func rank(_ first: Int) -> Int {
      let below = words[first >> 6] & ((1 << UInt64(first & 63)) - 1)
      return before[first >> 6] + below.nonzeroBitCount
    }
  }

  /// A voxel's colour from its channel sums over `count` points: each mean rounded to
  /// nearest, halves up (floor(sum / n + 1/2) in integers).
  @inline(__always)
  static func meanColor(red: UInt64, green: UInt64, blue: UInt64, count: Int) -> RGB8 {
    let n = UInt64(count)
    return RGB8(
      UInt8((2 * red + n) / (2 * n)), UInt8((2 * green + n) / (2 * n)),
      UInt8((2 * blue + n) / (2 * n)))
  }

  /// The merged cloud from every bucket's voxels, or nil once `stop`, asked before each
  /// bucket and every few thousand voxels of the attributes, says to stop.
  static func assemble<Key>(
    _ cloud: PointCloud, _ inputs: VoxelInputs, voxels: [VoxelBucketVoxels<Key>],
    stop: StopCheck? = nil
  ) -> PointCloud? {
    let total = voxels.reduce(0) { $0 + $1.count }
    let ranks = FirstPointRanks(pointCount: cloud.count, voxels: voxels)
    if StopChecks.now(stop) { return nil }
    let positions = VoxelBuffer<Point3>(count: total)
    let colors = cloud.colors.map { _ in VoxelBuffer<RGB8>(count: total) }
    let normals = cloud.normals.map { _ in VoxelBuffer<Point3>(count: total) }
    let confidence = inputs.confidence.isEmpty ? nil : VoxelBuffer<UInt8>(count: total)
    // Only integer attributes read each voxel's first point; most clouds have none.
    let keepsFirsts = cloud.attributes.contains {
      switch $0.values {
      case .float32, .float64: return false
      default: return true
      }
    }
    let firstIndices = keepsFirsts ? VoxelBuffer<Int>(count: total) : nil
    let floatMeans = inputs.floatAttributes.map { _ in VoxelBuffer<Double>(count: total) }
    let normalStride = cloud.normals == nil ? 0 : 3

    VoxelBuckets.forEachChunk(voxels.count, Parallel.cores) {
      _, range in
      for bucket in voxels[range] {
        if StopChecks.now(stop) { return }
        for slot in 0..<bucket.count {
          let r = bucket.records[slot]
          let out = ranks.rank(r.firstIndex)
          let n = Double(r.count)
          positions[out] = Point3(Float(r.sumX / n), Float(r.sumY / n), Float(r.sumZ / n))
          firstIndices?[out] = r.firstIndex
          if let colors {
            colors[out] = meanColor(red: r.red, green: r.green, blue: r.blue, count: r.count)
          }
          if let normals {
            let (x, y, z) = (bucket.extra(slot, 0), bucket.extra(slot, 1), bucket.extra(slot, 2))
            let length = (x * x + y * y + z * z).squareRoot()
            normals[out] =
              length > 0 ? Point3(Float(x / length), Float(y / length), Float(z / length)) : .zero
          }
          confidence?[out] = r.confidence
          for (k, means) in floatMeans.enumerated() {
            means[out] = bucket.extra(slot, normalStride + k) / n
          }
        }
      }
    }

    if StopChecks.now(stop) { return nil }
    var attributes: [PointAttribute] = []
    var nextFloat = 0
    var confidenceTaken = confidence == nil
    let firsts = firstIndices?.array ?? []
    for attribute in cloud.attributes {
      let values: AttributeValues
      switch attribute.values {
      case .uint8 where !confidenceTaken && attribute.name == confidenceName:
        confidenceTaken = true
        values = .uint8(confidence?.array ?? [])
      case .float32:
        values = .float32(floatMeans[nextFloat].array.map { Float($0) })
        nextFloat += 1
      case .float64:
        values = .float64(floatMeans[nextFloat].array)
        nextFloat += 1
      case .int8(let v): values = .int8(firsts.map { v[$0] })
      case .uint8(let v): values = .uint8(firsts.map { v[$0] })
      case .int16(let v): values = .int16(firsts.map { v[$0] })
      case .uint16(let v): values = .uint16(firsts.map { v[$0] })
      case .int32(let v): values = .int32(firsts.map { v[$0] })
      case .uint32(let v): values = .uint32(firsts.map { v[$0] })
      }
      attributes.append(PointAttribute(name: attribute.name, values: values))
      if StopChecks.now(stop) { return nil }
    }
    return PointCloud(
      positions: positions.array, colors: colors?.array, normals: normals?.array,
      attributes: attributes)
  }
}
