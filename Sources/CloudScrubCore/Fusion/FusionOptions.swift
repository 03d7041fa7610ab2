import Foundation

/// The settings of a fusion: voxel size, truncation, small pieces and memory.
public struct FusionOptions: Equatable, Sendable {
  /// Voxel edge in metres; nil chooses one from the frames (`automaticVoxelSize`).
  public var voxelSizeMeters: Float?
  /// Truncation distance in metres; nil uses `truncationVoxels` voxels.
  public var truncationMeters: Float?
  /// Connected pieces of the mesh with fewer triangles are removed (0 keeps all).
  public var minPieceTriangles: Int
  /// The most memory the voxel blocks may take.
  public var memoryLimitBytes: Int

  /// The truncation, in voxels, when none is given.
  public static let truncationVoxels: Float = 4
  /// The longest truncation, in voxels: each depth's ray is followed through the blocks
  /// of twice this many voxels, and a frame's band of updated voxels grows with it.
  public static let maximumTruncationVoxels: Float = 32

  public init(
    voxelSizeMeters: Float? = nil, truncationMeters: Float? = nil, minPieceTriangles: Int = 0,
    memoryLimitBytes: Int = FusionOptions.defaultMemoryLimit
  ) {
    self.voxelSizeMeters = voxelSizeMeters
    self.truncationMeters = truncationMeters
    self.minPieceTriangles = minPieceTriangles
    self.memoryLimitBytes = memoryLimitBytes
  }

  /// Half of this machine's memory.
  public static var defaultMemoryLimit: Int {
    Int(clamping: ProcessInfo.processInfo.physicalMemory / 2)
  }

  /// The voxel size for frames whose median depth is `medianDepth` metres, seen with a
  /// focal length of `focalPixels` depth pixels: two depth pixels' footprint at that
  /// depth (about as fine as the sensor resolves there), rounded to the millimetre and
  /// kept within 2 mm…10 cm. An iPhone's 256 × 192 map (f ≈ 210 px) gives 1 cm at
  /// 1 m and 2.9 cm at 3 m.
  public static func automaticVoxelSize(medianDepth: Float, focalPixels: Float) -> Float {
    guard medianDepth > 0, focalPixels > 0 else { return 0.01 }
    let size = (2 * medianDepth / focalPixels * 1000).rounded() / 1000
    return min(max(size, 0.002), 0.1)
  }

  /// The voxel size and truncation for `frames` (a sample of the selection).
  ///
  /// - Throws: `FusionError.truncationTooLong` for a truncation of more than
  ///   `maximumTruncationVoxels` voxels.
  public func resolved(
    for frames: [FusionFrame]
  ) throws(FusionError) -> (voxel: Float, truncation: Float) {
    let voxel =
      voxelSizeMeters
      ?? {
        var depths: [Float] = []
        var focal: Float = 0
        for frame in frames {
          let step = max(1, frame.pixels.count / 4096)
          depths += Swift.stride(from: 0, to: frame.pixels.count, by: step).map {
            frame.pixels[$0].depth
          }.filter { $0 > 0 }
          focal = max(focal, min(frame.fx, frame.fy) / Float(frame.stride))
        }
        depths.sort()
        let median = depths.isEmpty ? 0 : depths[depths.count / 2]
        return Self.automaticVoxelSize(medianDepth: median, focalPixels: focal)
      }()
    let truncation = truncationMeters ?? voxel * Self.truncationVoxels
    let longest = voxel * Self.maximumTruncationVoxels
    guard truncation <= longest else {
      throw .truncationTooLong(truncation: truncation, voxelSize: voxel, longest: longest)
    }
    return (voxel, truncation)
  }
}
