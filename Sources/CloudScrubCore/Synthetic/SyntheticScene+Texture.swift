import Foundation

extension SyntheticScene {
  /// The texture colour of `surface` at `point` (a point on it; others are projected).
  ///
  /// Each surface is divided into flat-coloured cells: the floor into 0.25 m squares
  /// (16 × 16), the walls into 0.5 m columns by 0.25 m rows (8 × 10), the box's faces
  /// into 0.1 m squares, the sphere into 12 bands of longitude (30°, from −x through
  /// −z) by 8 of latitude (22.5°, from the bottom). Cell (i, j), counted from the low
  /// end of each coordinate, has two channels 40 + 13·i and 40 + 13·j, in that order,
  /// and a third that alternates like a checkerboard between two values off that
  /// lattice. Where that third channel is (blue, green or red) and its pair of values
  /// name the surface, so in the standard scene every cell of every surface has a
  /// colour of its own. Indices past 15 (a larger room) repeat the 16th cell's colour.
  public func color(at point: SIMD3<Double>, on surface: Surface) -> RGB8 {
    color(x: point.x, y: point.y, z: point.z, on: surface)
  }

  /// `color(at:on:)` on plain numbers, for the renderer's inner loop.
  func color(x: Double, y: Double, z: Double, on surface: Surface) -> RGB8 {
    let (i, j) = cellIndices(x: x, y: y, z: z, on: surface)
    return Self.cellColor(i: i, j: j, style: surface.index)
  }

  /// The texture cell a point falls in: column and row, from 0.
  func cellIndices(x: Double, y: Double, z: Double, on surface: Surface) -> (Int, Int) {
    guard surface == .sphere else {
      let rectangle = rectangles[surface.index]
      func coordinate(_ axis: Int) -> Double { axis == 0 ? x : axis == 1 ? y : z }
      return (
        Self.band(coordinate(rectangle.uAxis) - rectangle.uLow, size: rectangle.cellU),
        Self.band(coordinate(rectangle.vAxis) - rectangle.vLow, size: rectangle.cellV)
      )
    }
    let (nx, ny, nz) = (x - sphereCenter.x, y - sphereCenter.y, z - sphereCenter.z)
    let length = (nx * nx + ny * ny + nz * nz).squareRoot()
    guard length > 0 else { return (0, 0) }
    let longitude = atan2(nz, nx)  // −π…π
    let latitude = asin(min(max(ny / length, -1), 1))  // −π/2…π/2
    return (
      Self.band(longitude + Double.pi, size: 2 * Double.pi / 12),
      Self.band(latitude + Double.pi / 2, size: Double.pi / 8)
    )
  }

  private static func band(_ offset: Double, size: Double) -> Int {
    let index = (offset / size).rounded(.down)
    guard index.isFinite else { return 0 }
    return Int(min(max(index, 0), 15))
  }

  /// The checkerboard channel's (even, odd) values for styles 0–2, 3–5, 6–8 and 9–11.
  /// None is 40 + 13·n for n in 0…15 and none repeats, so the channel that holds one
  /// tells the style's position and the value its pair.
  private static let checkerPairs: [(UInt8, UInt8)] = [(248, 20), (242, 12), (255, 28), (238, 4)]

  /// The colour of cell (i, j), each in 0…15, for surface number `style` (0…11).
  static func cellColor(i: Int, j: Int, style: Int) -> RGB8 {
    let a = UInt8(40 + 13 * i)
    let b = UInt8(40 + 13 * j)
    let (even, odd) = checkerPairs[style / 3 % checkerPairs.count]
    let c = (i + j) & 1 == 0 ? even : odd
    switch style % 3 {
    case 0: return RGB8(a, b, c)
    case 1: return RGB8(a, c, b)
    default: return RGB8(c, a, b)
    }
  }
}
