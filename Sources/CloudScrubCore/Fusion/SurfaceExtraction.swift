import Foundation

extension TSDFVolume {
  /// The zero crossing of the fused distances as an indexed mesh (marching cubes over
  /// `MarchingCubesTable`), with colours and normals, on every core.
  ///
  /// A vertex lies on each voxel edge whose two voxels were both seen, have distances of
  /// opposite sign and neither is truncated (|tsdf| < 1), where the linear interpolation
  /// of the two distances is zero; each edge's vertex is made once, by the voxel at its
  /// lower end, so no vertex is repeated. A cube becomes triangles only when all eight
  /// voxels were seen and every edge its pattern cuts has a vertex. Triangles of zero
  /// area are left out. Normals are the area-weighted mean of each vertex's triangles'.
  public func extractMesh() -> TriangleMesh {
    let count = blockCount
    guard count > 0 else { return TriangleMesh() }
    let neighbourhoods = (0..<count).map { neighbourhood(ofBlock: $0) }
    let cores = Parallel.cores
    let chunks = cores > 1 ? min(count, 8 * cores) : 1
    @Sendable func range(_ chunk: Int) -> Range<Int> {
      (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
    }
    let edges = ParallelSlots<[BlockEdges]>(count: chunks, initial: [])
    let vertices = ParallelSlots<TriangleMesh>(count: chunks, initial: TriangleMesh())
    Parallel.perform(iterations: chunks) { chunk in
      var mesh = TriangleMesh()
      var blocks: [BlockEdges] = []
      for block in range(chunk) {
        blocks.append(neighbourhoods[block].vertices(into: &mesh, voxelSize: voxelSize))
      }
      edges[chunk] = blocks
      vertices[chunk] = mesh
    }
    var mesh = TriangleMesh()
    var blockEdges: [BlockEdges] = []
    blockEdges.reserveCapacity(count)
    for chunk in 0..<chunks {
      var first = mesh.positions.count
      for var block in edges[chunk] {
        block.firstVertex = first
        first += block.count
        blockEdges.append(block)
      }
      mesh.positions += vertices[chunk].positions
      mesh.colors += vertices[chunk].colors
    }
    let positions = mesh.positions
    let allEdges = blockEdges
    let triangleSlots = ParallelSlots<[SIMD3<UInt32>]>(count: chunks, initial: [])
    Parallel.perform(iterations: chunks) { chunk in
      var triangles: [SIMD3<UInt32>] = []
      for block in range(chunk) {
        neighbourhoods[block].triangles(into: &triangles, edges: allEdges, positions: positions)
      }
      triangleSlots[chunk] = triangles
    }
    for chunk in 0..<chunks { mesh.triangles += triangleSlots[chunk] }
    // Vertices whose every triangle was left out go too.
    mesh = mesh.keeping(triangles: mesh.triangles)
    mesh.computeNormals()
    return mesh
  }

  /// Block `number` with its seven neighbours on the positive side.
  private func neighbourhood(ofBlock number: Int) -> BlockNeighbourhood {
    let coordinate = blockCoordinates[number]
    var blocks = [Int](repeating: -1, count: 8)
    var voxels = [BlockVoxels?](repeating: nil, count: 8)
    for d in 0..<8 {
      let neighbour = coordinate &+ SIMD3(Int32(d & 1), Int32((d >> 1) & 1), Int32(d >> 2))
      guard let key = Self.key(neighbour), let found = blockNumbers.find(key) else { continue }
      blocks[d] = Int(found)
      voxels[d] = self.voxels(ofBlock: Int(found))
    }
    return BlockNeighbourhood(coordinate: coordinate, blocks: blocks, voxels: voxels)
  }
}

/// Which of a block's voxel edges carry a vertex: bit `voxel · 3 + axis`, with the
/// count before each 64-bit word, and the number of the block's first vertex.
struct BlockEdges: Sendable {
  var bits = [UInt64](repeating: 0, count: TSDFVolume.voxelsPerBlock * 3 / 64)
  var before = [Int32](repeating: 0, count: TSDFVolume.voxelsPerBlock * 3 / 64)
  var firstVertex = 0
  /// The block's vertices.
  var count = 0

  /// The vertex of `edge` (voxel · 3 + axis), nil when the edge has none.
  @inline(__always)
  func vertex(_ edge: Int) -> Int? {
    let word = bits[edge >> 6]
    let bit = UInt64(1) << UInt64(edge & 63)
    guard word & bit != 0 else { return nil }
    return firstVertex + Int(before[edge >> 6]) + (word & (bit - 1)).nonzeroBitCount
  }
}

/// A block and the seven blocks after it along x, y and z (index dx + 2dy + 4dz), for
/// reading voxels one past the block's far faces.
private struct BlockNeighbourhood: @unchecked Sendable {
  let coordinate: SIMD3<Int32>
  /// Block numbers, −1 where there is none.
  let blocks: [Int]
  let voxels: [BlockVoxels?]

  /// The voxel at (x, y, z), each 0…15 from this block's first voxel, with the block it
  /// belongs to and its index there; nil where that block was never made.
  @inline(__always)
  func voxel(_ x: Int, _ y: Int, _ z: Int) -> (TSDFVoxel, block: Int, index: Int)? {
    let d = (x >> 3) | ((y >> 3) << 1) | ((z >> 3) << 2)
    guard let base = voxels[d] else { return nil }
    let index = ((z & 7) << 6) | ((y & 7) << 3) | (x & 7)
    return (base[index], blocks[d], index)
  }

  /// The distance of the voxel at (x, y, z), each 0…15 from this block's first voxel,
  /// nil where it was never seen or its block never made.
  @inline(__always)
  func seenDistance(_ x: Int, _ y: Int, _ z: Int) -> Float? {
    let d = (x >> 3) | ((y >> 3) << 1) | ((z >> 3) << 2)
    guard let base = voxels[d] else { return nil }
    let (tsdf, weight) = base.distance(((z & 7) << 6) | ((y & 7) << 3) | (x & 7))
    return weight > 0 ? tsdf : nil
  }

  /// Appends the vertices of this block's own edges to `mesh` and says which edges have one.
  func vertices(into mesh: inout TriangleMesh, voxelSize: Float) -> BlockEdges {
    var edges = BlockEdges()
    let origin = SIMD3<Float>(coordinate &* Int32(TSDFVolume.blockSide)) + 0.5
    for index in 0..<TSDFVolume.voxelsPerBlock {
      let (x, y, z) = (index & 7, (index >> 3) & 7, index >> 6)
      guard let hereDistance = seenDistance(x, y, z), abs(hereDistance) < 1 else { continue }
      for axis in 0..<3 {
        let step = SIMD3<Int>(axis == 0 ? 1 : 0, axis == 1 ? 1 : 0, axis == 2 ? 1 : 0)
        guard let thereDistance = seenDistance(x + step.x, y + step.y, z + step.z),
          abs(thereDistance) < 1, (hereDistance < 0) != (thereDistance < 0),
          let (here, _, _) = voxel(x, y, z),
          let (there, _, _) = voxel(x + step.x, y + step.y, z + step.z)
        else { continue }
        let t = min(max(here.tsdf / (here.tsdf - there.tsdf), 0.001), 0.999)
        let p =
          (origin + SIMD3<Float>(Float(x), Float(y), Float(z)) + SIMD3<Float>(step) * t)
          * voxelSize
        mesh.positions.append(Point3(p.x, p.y, p.z))
        let a = SIMD3<Float>(Float(here.red), Float(here.green), Float(here.blue))
        let b = SIMD3<Float>(Float(there.red), Float(there.green), Float(there.blue))
        let c = (a + (b - a) * t) / 256
        mesh.colors.append(RGB8(UInt8(min(c.x, 255)), UInt8(min(c.y, 255)), UInt8(min(c.z, 255))))
        let edge = index * 3 + axis
        edges.bits[edge >> 6] |= UInt64(1) << UInt64(edge & 63)
      }
    }
    var made: Int32 = 0
    for word in 0..<edges.bits.count {
      edges.before[word] = made
      made += Int32(edges.bits[word].nonzeroBitCount)
    }
    edges.count = Int(made)
    return edges
  }

  /// Appends the triangles of the cubes whose first corner is one of this block's voxels.
  func triangles(
    into triangles: inout [SIMD3<UInt32>], edges: [BlockEdges], positions: [Point3]
  ) {
    var edgeVertices = [Int](repeating: -1, count: 12)
    var made: [SIMD3<UInt32>] = []
    cubes: for index in 0..<TSDFVolume.voxelsPerBlock {
      let (x, y, z) = (index & 7, (index >> 3) & 7, index >> 6)
      var pattern = 0
      if x < 7, y < 7, z < 7, let own = voxels[0] {
        // Every corner in this block: corner c is voxel index + c's offset.
        for c in 0..<8 {
          let (tsdf, weight) = own.distance(index + (c & 1) + ((c & 2) << 2) + ((c & 4) << 4))
          guard weight > 0 else { continue cubes }
          if tsdf < 0 { pattern |= 1 << c }
        }
      } else {
        for c in 0..<8 {
          guard let distance = seenDistance(x + (c & 1), y + ((c >> 1) & 1), z + (c >> 2))
          else { continue cubes }
          if distance < 0 { pattern |= 1 << c }
        }
      }
      let cubeTriangles = MarchingCubesTable.triangles[pattern]
      guard !cubeTriangles.isEmpty else { continue }
      for k in 0..<12 { edgeVertices[k] = -1 }
      func vertex(_ edge: UInt8) -> Int? {
        if edgeVertices[Int(edge)] >= 0 { return edgeVertices[Int(edge)] }
        let low = MarchingCubesTable.lowCorners[Int(edge)]
        guard
          let (_, block, owner) = voxel(x + (low & 1), y + ((low >> 1) & 1), z + (low >> 2)),
          let found = edges[block].vertex(owner * 3 + Int(edge) / 4)
        else { return nil }
        edgeVertices[Int(edge)] = found
        return found
      }
      made.removeAll(keepingCapacity: true)
      for (a, b, c) in cubeTriangles {
        guard let va = vertex(a), let vb = vertex(b), let vc = vertex(c) else { continue cubes }
        let triangle = SIMD3(UInt32(va), UInt32(vb), UInt32(vc))
        if TriangleMesh.doubleArea(triangle, positions) > 0 { made.append(triangle) }
      }
      triangles += made
    }
  }
}
