import Foundation

/// Turns a position into the key of its voxel: cell index `floor(Double(c) / size)` on
/// each axis, on a grid anchored at the origin.
protocol VoxelKeying: Sendable {
  associatedtype Key: Equatable & Sendable

  /// The key of the voxel holding `point`, or `nil` when a coordinate is NaN or infinite.
  func key(_ point: Point3) -> Key?

  /// A well-mixed 64-bit hash of `key`.
  func hash(_ key: Key) -> UInt64
}

/// MurmurHash3's 64-bit finaliser: every input bit reaches every output bit.
@inline(__always)
func voxelMix(_ value: UInt64) -> UInt64 {
  var h = value
  h ^= h >> 33
  h &*= 0xFF51_AFD7_ED55_8CCD
  h ^= h >> 33
  h &*= 0xC4CE_B9FE_1A85_EC53
  h ^= h >> 33
  return h
}

/// The cell index of one coordinate as an integer-valued `Double` (+0 for the zero cell,
/// never −0, so that bit patterns compare like values).
///
/// `floor` without a libm call where truncating through `Int64` is exact (below 2⁵² in
/// magnitude, where a `Double` may still have a fraction): truncate, then step down
/// where truncation went up. Larger quotients are whole already and NaN stays NaN.
@inline(__always)
func voxelCell(_ coordinate: Float, size: Double) -> Double {
  let quotient = Double(coordinate) / size
  guard abs(quotient) < 0x1p52 else { return quotient.rounded(.down) + 0 }
  let truncated = Double(Int64(quotient))
  return (truncated > quotient ? truncated - 1 : truncated) + 0
}

/// Keys of 21 bits an axis, relative to the lowest cell: used when the cloud spans fewer
/// than 2²¹ cells on every axis (20 km at 1 cm), which is every real scan.
struct PackedVoxelKeying: VoxelKeying {
  static let bitsPerAxis = 21
  let size: Double
  let lowestCell: (x: Int64, y: Int64, z: Int64)

  /// Keys for a cloud whose finite positions lie in `bounds`, or `nil` when its cells do
  /// not fit in 21 bits an axis.
  init?(size: Double, bounds: Bounds3) {
    let low = (
      voxelCell(bounds.min.x, size: size), voxelCell(bounds.min.y, size: size),
      voxelCell(bounds.min.z, size: size)
    )
    let high = (
      voxelCell(bounds.max.x, size: size), voxelCell(bounds.max.y, size: size),
      voxelCell(bounds.max.z, size: size)
    )
    let limit = Double(1 << Self.bitsPerAxis)
    // Cells past 2⁵² would make the subtraction below inexact.
    for (lo, hi) in [(low.0, high.0), (low.1, high.1), (low.2, high.2)] {
      guard abs(lo) < 0x1p52, abs(hi) < 0x1p52, hi - lo < limit else { return nil }
    }
    self.size = size
    lowestCell = (Int64(low.0), Int64(low.1), Int64(low.2))
  }

  /// `floor(Double(c) / size)` without a libm call (x86-64's baseline has no rounding
  /// instruction): truncate, then step down where truncation went up. Exact because the
  /// initialiser checked that every cell is below 2⁵² in magnitude.
  @inline(__always)
  private func cell(_ coordinate: Float) -> Int64 {
    let quotient = Double(coordinate) / size
    let truncated = Int64(quotient)
    return Double(truncated) > quotient ? truncated - 1 : truncated
  }

  @inline(__always)
  func key(_ point: Point3) -> UInt64? {
    guard point.x.isFinite, point.y.isFinite, point.z.isFinite else { return nil }
    // floor is monotonic, so every cell is at or above the bounds' lowest cell.
    let x = UInt64(bitPattern: cell(point.x) &- lowestCell.x)
    let y = UInt64(bitPattern: cell(point.y) &- lowestCell.y)
    let z = UInt64(bitPattern: cell(point.z) &- lowestCell.z)
    return x | y << Self.bitsPerAxis | z << (2 * Self.bitsPerAxis)
  }

  @inline(__always)
  func hash(_ key: UInt64) -> UInt64 { voxelMix(key) }
}

/// Keys for any finite coordinates: the bit patterns of the three cell indices as
/// `Double`s, which stay exact however far a cell is from the origin.
struct WideVoxelKeying: VoxelKeying {
  struct Key: Equatable, Sendable {
    var x: UInt64
    var y: UInt64
    var z: UInt64
  }

  let size: Double

  func key(_ point: Point3) -> Key? {
    guard point.x.isFinite, point.y.isFinite, point.z.isFinite else { return nil }
    return Key(
      x: voxelCell(point.x, size: size).bitPattern, y: voxelCell(point.y, size: size).bitPattern,
      z: voxelCell(point.z, size: size).bitPattern)
  }

  func hash(_ key: Key) -> UInt64 {
    voxelMix(key.x ^ voxelMix(key.y ^ voxelMix(key.z)))
  }
}
