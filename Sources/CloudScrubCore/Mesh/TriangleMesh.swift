/// An indexed triangle mesh with a colour and a normal a vertex.
///
/// Triangles list their vertices counter-clockwise seen from the side their normal
/// faces (for a fused surface: the side the cameras saw).
public struct TriangleMesh: Equatable, Sendable {
  public var positions: [Point3]
  public var colors: [RGB8]
  /// Unit normals, one a vertex; empty when not known.
  public var normals: [Point3]
  /// Three vertex indices a triangle.
  public var triangles: [SIMD3<UInt32>]

  public init(
    positions: [Point3] = [], colors: [RGB8] = [], normals: [Point3] = [],
    triangles: [SIMD3<UInt32>] = []
  ) {
    self.positions = positions
    self.colors = colors
    self.normals = normals
    self.triangles = triangles
  }

  /// The mesh whose vertices are `cloud`'s points (with their colours and normals).
  public init(vertices cloud: PointCloud, triangles: [SIMD3<UInt32>]) {
    self.init(
      positions: cloud.positions, colors: cloud.colors ?? [], normals: cloud.normals ?? [],
      triangles: triangles)
  }

  public var vertexCount: Int { positions.count }
  public var isEmpty: Bool { triangles.isEmpty }

  /// The smallest box holding every vertex; nil without vertices.
  public var bounds: Bounds3? { PointCloud(positions: positions).bounds }

  /// The surface's area, in square metres.
  public var area: Double {
    triangles.reduce(0) { sum, t in sum + Self.doubleArea(t, positions) / 2 }
  }

  /// Twice the area of triangle `t`.
  static func doubleArea(_ t: SIMD3<UInt32>, _ positions: [Point3]) -> Double {
    let a = SIMD3<Double>(positions[Int(t.x)])
    let e1 = SIMD3<Double>(positions[Int(t.y)]) - a
    let e2 = SIMD3<Double>(positions[Int(t.z)]) - a
    let n = e1.cross(e2)
    return (n * n).sum().squareRoot()
  }

  /// Sets each vertex's normal to the area-weighted mean of its triangles' normals.
  public mutating func computeNormals() {
    var sums = [SIMD3<Double>](repeating: .zero, count: positions.count)
    for t in triangles {
      let a = SIMD3<Double>(positions[Int(t.x)])
      // Unnormalised, the cross product weights a triangle by its area.
      let n = (SIMD3<Double>(positions[Int(t.y)]) - a).cross(SIMD3<Double>(positions[Int(t.z)]) - a)
      sums[Int(t.x)] += n
      sums[Int(t.y)] += n
      sums[Int(t.z)] += n
    }
    normals = sums.map { n in
      let length = (n * n).sum().squareRoot()
      guard length > 0 else { return Point3(0, 0, 0) }
      return Point3(Float(n.x / length), Float(n.y / length), Float(n.z / length))
    }
  }

  /// The mesh without its connected pieces of fewer than `minTriangles` triangles
  /// (pieces joined by a shared vertex), the vertices renumbered in their order.
  public func removingPieces(smallerThan minTriangles: Int) -> TriangleMesh {
    guard minTriangles > 1, !triangles.isEmpty else { return self }
    var pieces = UnionFind(count: positions.count)
    for t in triangles {
      pieces.union(Int(t.x), Int(t.y))
      pieces.union(Int(t.x), Int(t.z))
    }
    var sizes: [Int: Int] = [:]
    for t in triangles { sizes[pieces.find(Int(t.x)), default: 0] += 1 }
    let kept = triangles.filter { sizes[pieces.find(Int($0.x)), default: 0] >= minTriangles }
    return keeping(triangles: kept)
  }

  /// The mesh of `kept` triangles, holding only the vertices they use.
  func keeping(triangles kept: [SIMD3<UInt32>]) -> TriangleMesh {
    var newIndex = [UInt32](repeating: .max, count: positions.count)
    var mesh = TriangleMesh()
    let hasNormals = normals.count == positions.count
    for t in kept {
      for k in 0..<3 where newIndex[Int(t[k])] == .max {
        let old = Int(t[k])
        newIndex[old] = UInt32(mesh.positions.count)
        mesh.positions.append(positions[old])
        mesh.colors.append(colors[old])
        if hasNormals { mesh.normals.append(normals[old]) }
      }
    }
    mesh.triangles = kept.map {
      SIMD3(newIndex[Int($0.x)], newIndex[Int($0.y)], newIndex[Int($0.z)])
    }
    return mesh
  }

  /// The vertices as a point cloud with their colours and normals: the surface one
  /// point thick.
  public var vertexCloud: PointCloud {
    PointCloud(
      positions: positions, colors: colors,
      normals: normals.count == positions.count ? normals : nil)
  }
}

/// Disjoint sets of indices, joined by `union`, with path halving.
struct UnionFind {
  private var parent: [Int]

  init(count: Int) { parent = Array(0..<count) }

  mutating func find(_ x: Int) -> Int {
    var x = x
    while parent[x] != x {
      parent[x] = parent[parent[x]]
      x = parent[x]
    }
    return x
  }

  mutating func union(_ a: Int, _ b: Int) {
    let ra = find(a)
    let rb = find(b)
    if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
  }
}

extension SIMD3 where Scalar == Double {
  init(_ p: Point3) { self.init(Double(p.x), Double(p.y), Double(p.z)) }

  /// The cross product `self × b`.
  func cross(_ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
  }
}
