/// The level of detail's shape as plain pointers for the descent of one point: which
/// node keeps it. The hot loop of building, shared by the one-thread and the parallel
/// descent; valid only inside `PointOctree.withDescent`.
struct LODDescent: @unchecked Sendable {
  let cubes: UnsafeBufferPointer<LODCube>
  /// Per node, `resolution / sizeMeters`.
  let scales: UnsafeBufferPointer<Double>
  let inner: UnsafeBufferPointer<Bool>
  /// Eight child numbers a node (−1: none).
  let children: UnsafeBufferPointer<Int32>
  /// Per node, its grid (−1 for a leaf).
  let gridOf: UnsafeBufferPointer<Int32>
  /// Every grid's words; a task writes only the grids of the nodes it descends.
  let words: UnsafeMutableBufferPointer<UInt64>
  let wordsPerGrid: Int
  let resolution: Int

  /// What `descend` found: the node that keeps the point, or a missing child.
  enum Outcome {
    case kept(Int)
    case missingChild(parent: Int, octant: Int)
  }

  /// Descends a finite `point` from `start` (an inner node or a leaf): an inner node
  /// keeps it when its grid cell is free (and marks the cell), else it goes on to the
  /// child of its octant; a leaf keeps it.
  @inline(__always)
  func descend(_ point: SIMD3<Double>, from start: Int) -> Outcome {
    let top = Double(resolution - 1)
    var node = start
    while inner[node] {
      let cube = cubes[node]
      // The same arithmetic as `PointOctree.cell(of:in:resolution:)`.
      let scaled = (point - cube.minimum) * scales[node]
      let x = Int(min(max(scaled.x, 0), top))
      let y = Int(min(max(scaled.y, 0), top))
      let z = Int(min(max(scaled.z, 0), top))
      let cell = x + resolution * (y + resolution * z)
      let word = Int(gridOf[node]) * wordsPerGrid + cell >> 6
      let mask = UInt64(1) << UInt64(cell & 63)
      if words[word] & mask == 0 {
        words[word] |= mask
        return .kept(node)
      }
      let octant = cube.octant(of: point)
      let child = Int(children[node * 8 + octant])
      if child < 0 { return .missingChild(parent: node, octant: octant) }
      node = child
    }
    return .kept(node)
  }
}

/// A mutable buffer that concurrent tasks write, each only at its own indices.
struct LODSharedTargets: @unchecked Sendable {
  let base: UnsafeMutableBufferPointer<Int32>
}

extension LODDescent {
  /// One level of the descent at `node` (inner): kept, on to child `next`, or the
  /// octant's child is missing (`next` −1).
  @inline(__always)
  func step(_ point: SIMD3<Double>, at node: Int) -> (kept: Bool, next: Int, octant: Int) {
    let cube = cubes[node]
    let top = Double(resolution - 1)
    let scaled = (point - cube.minimum) * scales[node]
    let x = Int(min(max(scaled.x, 0), top))
    let y = Int(min(max(scaled.y, 0), top))
    let z = Int(min(max(scaled.z, 0), top))
    let cell = x + resolution * (y + resolution * z)
    let word = Int(gridOf[node]) * wordsPerGrid + cell >> 6
    let mask = UInt64(1) << UInt64(cell & 63)
    if words[word] & mask == 0 {
      words[word] |= mask
      return (true, node, 0)
    }
    let octant = cube.octant(of: point)
    return (false, Int(children[node * 8 + octant]), octant)
  }
}

/// The points of a piece, read by concurrent tasks.
struct LODSharedPositions: @unchecked Sendable {
  let base: UnsafeBufferPointer<Point3>
}

/// The tree's nodes as the threads that append a piece's shares see them: each
/// writes only the nodes of its own group.
struct LODSharedNodes: @unchecked Sendable {
  let base: UnsafeMutableBufferPointer<LODNode>
}
