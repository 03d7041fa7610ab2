import Foundation
import Testing

@testable import CloudScrubCore

/// Which voxel blocks a frame updates: every block holding a point within the
/// truncation of a depth along its pixel's ray, found here by walking each pixel's ray
/// in millimetre steps.
@Suite struct BlockListingTests {
  static let voxel: Float = 0.01
  static let truncation: Float = 0.04

  /// Frame 0 of the synthetic room at the depth map's own size (walls 1–3 m away).
  static let frame: FusionFrame = {
    let fusion = RecordingFusion(
      loader: RecordingLoader(
        source: SyntheticRecordingSource(options: SyntheticRecordingOptions(frameCount: 1))),
      options: FusionOptions(voxelSizeMeters: voxel))
    do {
      return try fusion.frame(0)
    } catch {
      preconditionFailure("the synthetic frame did not load: \(error)")
    }
  }()

  /// The blocks of the points within the truncation of every depth, walked in steps of
  /// a millimetre along each pixel's ray through its centre.
  static let walked: Set<SIMD3<Int32>> = {
    let f = frame
    let (origin, axes) = f.cameraInWorld
    let blockSize = voxel * Float(TSDFVolume.blockSide)
    var blocks = Set<SIMD3<Int32>>()
    for row in 0..<f.height {
      for column in 0..<f.width {
        let d = f.pixels[row * f.width + column].depth
        guard d > 0 else { continue }
        let x = (Float(column * f.stride) + 0.5 - f.cx) / f.fx
        let y = (Float(row * f.stride) + 0.5 - f.cy) / f.fy
        // One unit along `ray` is one metre of depth.
        let ray = axes.0 * x + axes.1 * y + axes.2
        let reach = truncation / (ray * ray).sum().squareRoot()
        var depth = max(d - reach, 0)
        while depth <= d + reach {
          let p = (origin + ray * depth) / blockSize
          blocks.insert(
            SIMD3(Int32(p.x.rounded(.down)), Int32(p.y.rounded(.down)), Int32(p.z.rounded(.down))))
          depth += 0.001
        }
      }
    }
    return blocks
  }()

  static func listed(stride: Int?) throws -> Set<SIMD3<Int32>> {
    let volume = TSDFVolume(
      voxelSize: voxel, truncation: truncation, maxBlocks: 1 << 20, listingStride: stride)
    try volume.integrate(frame)
    return Set(volume.blockCoordinates)
  }

  @Test func theDefaultListingFindsTheBlocksOfEveryDepthsBand() throws {
    let listed = try Self.listed(stride: nil)
    let walked = Self.walked
    #expect(walked.count > 1_000)
    let found = walked.intersection(listed).count
    // Along a ray every block is listed; between sampled pixels a block the band only
    // clips may be missed (here 8 of 3,917), and its voxels are not updated.
    #expect(Double(found) >= 0.995 * Double(walked.count), "\(found) of \(walked.count)")
    #expect(walked.isSubset(of: try Self.listed(stride: 1)))
    // Little is listed beyond the walked band (blocks its millimetre steps step over).
    #expect(Double(listed.count) <= 1.01 * Double(walked.count), "\(listed.count)")
  }

  @Test func everyFourthPixelMissesBlocksOfTheBand() throws {
    let dense = try Self.listed(stride: nil)
    let sparse = try Self.listed(stride: 4)
    let walked = Self.walked
    let found = walked.intersection(sparse).count
    #expect(sparse.count < dense.count)
    // Here 3,464 of 3,917.
    #expect(Double(found) < 0.95 * Double(walked.count), "\(found) of \(walked.count)")
    // Every pixel lists at least what every fourth pixel lists.
    #expect(sparse.isSubset(of: try Self.listed(stride: 1)))
  }
}
