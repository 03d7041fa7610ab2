import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// Frames that add nothing, and depths far past any surface, leave the volume sound.
@Suite struct FusionInputTests {
  static func frame(_ depth: Float, width: Int = 8, height: Int = 6) -> CapturedFrame {
    Frames.depthFrame(
      width: width, height: height, meters: [Float](repeating: depth, count: width * height))
  }

  @Test func framesWithoutDepthAddNothing() throws {
    let fusion = RecordingFusion(
      loader: RecordingLoader(
        source: InMemoryRecording(frames: [Self.frame(0), Self.frame(.nan)])),
      options: FusionOptions(voxelSizeMeters: 0.01))
    let result = try fusion.run()
    #expect(result.blocks == 0)
    #expect(result.mesh.isEmpty)
    #expect(result.frameIndices == [0, 1])
  }

  /// Depths of 1e20 m (allowed by the depth range) make no block and no NaN.
  @Test func absurdDepthsAreSkipped() throws {
    let frames = [Self.frame(1e20), Self.frame(2), Self.frame(1e20)]
    let fusion = RecordingFusion(
      loader: RecordingLoader(
        source: InMemoryRecording(frames: frames),
        unprojection: UnprojectionOptions(depthRangeMeters: 0...1e30, flyingPixels: nil)),
      options: FusionOptions(voxelSizeMeters: 0.5))
    let result = try fusion.run()
    #expect(result.blocks > 0)
    #expect(result.mesh.positions.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite })
  }

  /// A pixel's weight: by confidence, and past a metre by 1/depth².
  @Test func weightsFollowConfidenceAndDistance() {
    #expect(FusionFrame.weight(confidence: 2, depth: 0.5) == 1)
    #expect(FusionFrame.weight(confidence: 1, depth: 0.5) == 0.5)
    #expect(FusionFrame.weight(confidence: 0, depth: 1) == 0.2)
    #expect(FusionFrame.weight(confidence: FramePoints.unknownConfidence, depth: 2) == 0.25)
    #expect(FusionFrame.weight(confidence: 2, depth: 1e20) == 0)
  }
}
