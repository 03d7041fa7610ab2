import Foundation

/// A small, fast, seedable random number generator (SplitMix64), so that synthetic
/// data is the same on every machine and run.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform `Float` in [0, 1).
  public mutating func unit() -> Float { Float(next() >> 40) * 0x1p-24 }
}

/// Coloured point clouds sampled from an analytic scene, for samples, tests and
/// benchmarks.
///
/// The scene is a room corner in metres, y up: a floor at y = 0 (x and z in −2…2) with
/// a 0.5 m checkerboard, a back wall at z = −2 and a left wall at x = −2 (2.5 m high),
/// and a sphere of radius 0.6 centred at (0.3, 0.6, −0.5) coloured by its normal.
/// Points are spread uniformly by area.
public enum SyntheticCloud {
  public static let sphereCenter = Point3(0.3, 0.6, -0.5)
  public static let sphereRadius: Float = 0.6
  public static let roomHalfWidth: Float = 2
  public static let wallHeight: Float = 2.5

  /// Samples `count` points with colours and, when `normals` is set, unit normals.
  public static func scene(count: Int, seed: UInt64 = 1, normals: Bool = false) -> PointCloud {
    var random = SplitMix64(seed: seed)
    let w = roomHalfWidth
    let floorArea = (2 * w) * (2 * w)
    let wallArea = (2 * w) * wallHeight
    let sphereArea = 4 * Float.pi * sphereRadius * sphereRadius
    let total = floorArea + 2 * wallArea + sphereArea
    let thresholds = [floorArea, floorArea + wallArea, floorArea + 2 * wallArea].map { $0 / total }

    var positions: [Point3] = []
    var colors: [RGB8] = []
    var normalValues: [Point3] = []
    positions.reserveCapacity(count)
    colors.reserveCapacity(count)
    if normals { normalValues.reserveCapacity(count) }
    for _ in 0..<count {
      let pick = random.unit()
      let u = random.unit()
      let v = random.unit()
      let point: Point3
      let normal: Point3
      let color: RGB8
      if pick < thresholds[0] {
        point = Point3((u * 2 - 1) * w, 0, (v * 2 - 1) * w)
        normal = Point3(0, 1, 0)
        let checker = (Int(floor(point.x * 2)) + Int(floor(point.z * 2))) & 1 == 0
        color = checker ? RGB8(196, 164, 120) : RGB8(120, 88, 56)
      } else if pick < thresholds[1] {
        point = Point3((u * 2 - 1) * w, v * wallHeight, -w)
        normal = Point3(0, 0, 1)
        color = RGB8(UInt8(60 + 150 * v), UInt8(90 + 120 * v), 220)
      } else if pick < thresholds[2] {
        point = Point3(-w, v * wallHeight, (u * 2 - 1) * w)
        normal = Point3(1, 0, 0)
        let stripe = Int(floor(point.y * 4)) & 1 == 0
        color = stripe ? RGB8(230, 230, 220) : RGB8(200, 70, 60)
      } else {
        // Uniform on the sphere: z uniform in −1…1, longitude uniform.
        let z = u * 2 - 1
        let longitude = v * 2 * Float.pi
        let ring = (1 - z * z).squareRoot()
        normal = Point3(ring * cos(longitude), ring * sin(longitude), z)
        point = Point3(
          sphereCenter.x + sphereRadius * normal.x, sphereCenter.y + sphereRadius * normal.y,
          sphereCenter.z + sphereRadius * normal.z)
        color = RGB8(
          UInt8((normal.x * 0.5 + 0.5) * 255), UInt8((normal.y * 0.5 + 0.5) * 255),
          UInt8((normal.z * 0.5 + 0.5) * 255))
      }
      positions.append(point)
      colors.append(color)
      if normals { normalValues.append(normal) }
    }
    return PointCloud(
      positions: positions, colors: colors, normals: normals ? normalValues : nil)
  }
}
