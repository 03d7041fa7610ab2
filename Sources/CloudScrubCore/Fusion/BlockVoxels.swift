/// The voxels of one `TSDFVolume` block, 7,168 bytes: 64 rows of eight voxels along x
/// (row y + 8z), each row 112 bytes holding its eight distances, eight weights, and
/// eight of each colour channel. `VoxelIntegrator` updates a row as one vector of each
/// field. The memory is raw and only read and written through raw loads and stores.
struct BlockVoxels: @unchecked Sendable {
  static let rowBytes = 8 * (2 * MemoryLayout<Float>.size + 3 * MemoryLayout<UInt16>.size)
  static let bytes = TSDFVolume.voxelsPerBlock / 8 * rowBytes
  /// Byte offsets of the fields within a row.
  static let weightOffset = 32
  static let redOffset = 64
  static let greenOffset = 80
  static let blueOffset = 96

  let base: UnsafeMutableRawPointer

  /// Lays out a fresh block at `base`, `bytes` long: distance 1 (free space), weight 0,
  /// colour 0.
  static func initialize(at base: UnsafeMutableRawPointer) {
    for row in 0..<(TSDFVolume.voxelsPerBlock / 8) {
      let start = base + row * rowBytes
      start.storeBytes(of: SIMD8<Float>(repeating: 1), as: SIMD8<Float>.self)
      (start + weightOffset).storeBytes(of: SIMD8<Float>(), as: SIMD8<Float>.self)
      (start + redOffset).storeBytes(of: SIMD8<UInt16>(), as: SIMD8<UInt16>.self)
      (start + greenOffset).storeBytes(of: SIMD8<UInt16>(), as: SIMD8<UInt16>.self)
      (start + blueOffset).storeBytes(of: SIMD8<UInt16>(), as: SIMD8<UInt16>.self)
    }
  }

  /// The first byte of row `row` (y + 8z).
  @inline(__always)
  func row(_ row: Int) -> UnsafeMutableRawPointer { base + row * Self.rowBytes }

  /// The distance and weight of voxel `index` (x + 8y + 64z), without its colour.
  @inline(__always)
  func distance(_ index: Int) -> (tsdf: Float, weight: Float) {
    let start = row(index >> 3)
    let lane = index & 7
    return (
      start.load(fromByteOffset: 4 * lane, as: Float.self),
      start.load(fromByteOffset: Self.weightOffset + 4 * lane, as: Float.self)
    )
  }

  /// Voxel `index` (x + 8y + 64z) as one value.
  @inline(__always)
  subscript(index: Int) -> TSDFVoxel {
    let start = row(index >> 3)
    let lane = index & 7
    var voxel = TSDFVoxel()
    voxel.tsdf = start.load(fromByteOffset: 4 * lane, as: Float.self)
    voxel.weight = start.load(fromByteOffset: Self.weightOffset + 4 * lane, as: Float.self)
    voxel.red = start.load(fromByteOffset: Self.redOffset + 2 * lane, as: UInt16.self)
    voxel.green = start.load(fromByteOffset: Self.greenOffset + 2 * lane, as: UInt16.self)
    voxel.blue = start.load(fromByteOffset: Self.blueOffset + 2 * lane, as: UInt16.self)
    return voxel
  }
}
