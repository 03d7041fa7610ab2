import Foundation
import Testing

@testable import CloudScrubCore

/// Frames fused in batches (each block updated from every frame of the batch in turn)
/// leave every voxel as fusing them one by one does, bit for bit; a pixel's eight bytes
/// give back what was packed into them, and its weight as eight lanes is the scalar one.
@Suite struct BatchedIntegrationTests {
  /// Twenty noisy frames of the synthetic room, with confidence, at 2 cm voxels.
  static let frames: [FusionFrame] = {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(frameCount: 20, depthNoiseMeters: 0.002))
    let fusion = RecordingFusion(
      loader: RecordingLoader(source: source), options: FusionOptions(voxelSizeMeters: 0.02))
    do {
      return try (0..<source.frameCount).map { index throws(FrameLoadError) in
        try fusion.frame(index)
      }
    } catch {
      preconditionFailure("the synthetic frames did not load: \(error)")
    }
  }()

  static func volume() -> TSDFVolume {
    TSDFVolume(voxelSize: 0.02, truncation: 0.08, maxBlocks: 1 << 20)
  }

  @Test func batchesLeaveEveryVoxelAsFramesOneByOne() throws {
    let oneByOne = Self.volume()
    for frame in Self.frames { try oneByOne.integrate(frame) }
    let batched = Self.volume()
    // 20 frames: two whole batches of 8 and one of 4.
    try batched.integrate(Self.frames)
    #expect(Self.frames.count % TSDFVolume.framesPerBatch != 0)
    #expect(batched.blockCoordinates == oneByOne.blockCoordinates)
    #expect(oneByOne.blockCount > 500)
    var updated = 0
    var differing = 0
    let side = Int32(TSDFVolume.blockSide)
    for block in oneByOne.blockCoordinates {
      for index in 0..<Int32(TSDFVolume.voxelsPerBlock) {
        let c = block &* side &+ SIMD3(index % side, index / side % side, index / (side * side))
        let expected = oneByOne.voxel(at: c)
        if expected?.weight ?? 0 > 0 { updated += 1 }
        if batched.voxel(at: c) != expected { differing += 1 }
      }
    }
    #expect(differing == 0)
    #expect(updated > 100_000)
  }

  @Test func aPixelKeepsItsDepthColourAndConfidence() {
    let pixel = FusionPixel(depth: 1.25, color: RGB8(200, 17, 255), confidence: 1)
    #expect(MemoryLayout<FusionPixel>.stride == 8)
    #expect(pixel.depth == 1.25)
    #expect(pixel.color == RGB8(200, 17, 255))
    #expect(pixel.confidence == 1)
    #expect(pixel.weight == FusionFrame.weight(confidence: 1, depth: 1.25))
    let unknown = FusionPixel(
      depth: 2, color: RGB8(0, 0, 0), confidence: FramePoints.unknownConfidence)
    #expect(unknown.confidence == FramePoints.unknownConfidence)
    #expect(unknown.weight == 0.25)
  }

  @Test func eightWeightsAtOnceAreTheScalarOnes() {
    let depths: [Float] = [0.3, 1, 1.0000001, 2.5, 0.3, 3, 1e20, 0]
    let confidences: [UInt8] = [0, 1, 2, FramePoints.unknownConfidence, 2, 0, 2, 1]
    let lanes = VoxelIntegrator.weights(
      depth: SIMD8(depths), confidence: SIMD8(confidences.map { UInt32($0) }))
    for lane in 0..<7 {
      #expect(
        lanes[lane] == FusionFrame.weight(confidence: confidences[lane], depth: depths[lane]),
        "lane \(lane)")
    }
    // No depth (masked out before the weight is used) still gives no NaN.
    #expect(!lanes[7].isNaN)
  }
}
