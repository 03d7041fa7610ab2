/// The triangles of each of the 256 sign patterns of a cube's corners, worked out from
/// the cube's faces rather than written down.
///
/// Corner c sits at (c & 1, c >> 1 & 1, c >> 2 & 1); a corner is inside (behind the
/// surface) when its distance is negative, and pattern bit c is set for it. Edge
/// `axis · 4 + a + 2b` runs along `axis` from the corner whose other two coordinates
/// are a and b (in the axis order after `axis`: y z for x, z x for y, x y for z).
///
/// On each face the edges with a sign change are paired: with two, to each other; with
/// four (inside corners on a diagonal), each inside corner is cut off on its own. A
/// face's rule depends only on its four corners, so two cubes sharing a face cut it
/// alike and the surface closes. Each pair is directed so that, seen from outside the
/// face, the inside corner lies to its right; the pairs then chain into loops around
/// the inside corners, and each loop becomes a fan of triangles whose normals
/// (counter-clockwise order) point out of the inside.
public enum MarchingCubesTable {
  /// Triangles by pattern, each as three edge numbers.
  public static let triangles: [[(UInt8, UInt8, UInt8)]] = (0..<256).map(triangulate)
  /// The lower corner of each edge (`corners(ofEdge:)`'s first).
  static let lowCorners: [Int] = (0..<12).map { corners(ofEdge: $0).0 }

  /// The axes after `axis`, in order.
  static func others(_ axis: Int) -> (Int, Int) { ((axis + 1) % 3, (axis + 2) % 3) }

  /// The corner at `position`.
  static func corner(_ position: SIMD3<Int>) -> Int { position.x + 2 * position.y + 4 * position.z }

  static func position(ofCorner c: Int) -> SIMD3<Int> { SIMD3(c & 1, (c >> 1) & 1, (c >> 2) & 1) }

  /// The two corners of `edge`, lower first.
  static func corners(ofEdge edge: Int) -> (Int, Int) {
    let axis = edge / 4
    let (first, second) = others(axis)
    var low = SIMD3<Int>.zero
    low[first] = edge & 1
    low[second] = (edge >> 1) & 1
    var high = low
    high[axis] = 1
    return (corner(low), corner(high))
  }

  /// The edge between two corners that differ along one axis.
  static func edge(between a: Int, _ b: Int) -> Int {
    let low = position(ofCorner: min(a, b))
    let high = position(ofCorner: max(a, b))
    let axis = low.x != high.x ? 0 : low.y != high.y ? 1 : 2
    let (first, second) = others(axis)
    return axis * 4 + low[first] + 2 * low[second]
  }

  private static func triangulate(_ pattern: Int) -> [(UInt8, UInt8, UInt8)] {
    func inside(_ c: Int) -> Bool { pattern & (1 << c) != 0 }
    func midpoint(_ edge: Int) -> SIMD3<Double> {
      let (a, b) = corners(ofEdge: edge)
      return (SIMD3<Double>(position(ofCorner: a)) + SIMD3<Double>(position(ofCorner: b))) / 2
    }
    // Each directed pair: its start edge to its end edge.
    var next: [Int: Int] = [:]
    for axis in 0..<3 {
      for side in 0..<2 {
        let (first, second) = others(axis)
        // The face's corners in order round it.
        let ring = [(0, 0), (1, 0), (1, 1), (0, 1)].map { a, b -> Int in
          var p = SIMD3<Int>.zero
          p[axis] = side
          p[first] = a
          p[second] = b
          return corner(p)
        }
        var normal = SIMD3<Double>.zero
        normal[axis] = side == 0 ? -1 : 1
        // Each run of inside corners round the face (a corner alone when the inside
        // corners are diagonal) is cut off by a pair: the edges at its two ends.
        var pairs: [(Int, Int, inside: Int)] = []
        for k in 0..<4 where inside(ring[k]) && !inside(ring[(k + 3) % 4]) {
          var last = k
          while inside(ring[(last + 1) % 4]) { last += 1 }
          pairs.append(
            (
              edge(between: ring[(k + 3) % 4], ring[k]),
              edge(between: ring[last % 4], ring[(last + 1) % 4]), ring[k]
            ))
        }
        for (a, b, insideCorner) in pairs {
          let start = midpoint(a)
          let end = midpoint(b)
          let toInside = SIMD3<Double>(position(ofCorner: insideCorner)) - start
          let d = end - start
          let facing = (d.cross(toInside) * normal).sum()
          if facing < 0 { next[a] = b } else { next[b] = a }
        }
      }
    }
    var triangles: [(UInt8, UInt8, UInt8)] = []
    var unvisited = Set(next.keys)
    while let first = unvisited.min() {
      var loop = [first]
      unvisited.remove(first)
      // Every crossing edge starts one pair and ends another: the chain closes.
      var current = next[first] ?? first
      while current != first {
        loop.append(current)
        unvisited.remove(current)
        current = next[current] ?? first
      }
      for k in 1..<(loop.count - 1) {
        triangles.append((UInt8(loop[0]), UInt8(loop[k]), UInt8(loop[k + 1])))
      }
    }
    return triangles
  }
}
