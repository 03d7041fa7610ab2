import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// `.r3d` files written from synthetic recordings read back to the same world points.
@Suite struct R3DRecordingTests {
  /// Every frame of `recording` unprojects to the points of `source`'s frame, within
  /// 1 mm, with the same time and depth samples.
  static func expectSameWorld(
    _ recording: R3DRecording, _ source: any RecordingSource,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(recording.frameCount == source.frameCount, sourceLocation: sourceLocation)
    for index in 0..<source.frameCount {
      let expected = try source.frame(at: index)
      let imported = try recording.frame(at: index)
      #expect(imported.depth.metersGrid() == expected.depth.metersGrid())
      #expect(abs(imported.timestampSeconds - expected.timestampSeconds) < 1e-9)
      let points = try R3DTestFixture.worldPoints(imported)
      let reference = try R3DTestFixture.worldPoints(expected)
      #expect(points.count > 10_000, sourceLocation: sourceLocation)
      let distance = try #require(R3DTestFixture.largestDistance(points, reference))
      #expect(
        distance < 0.001, "frame \(index) off by \(distance) m", sourceLocation: sourceLocation)
    }
  }

  @Test func lidarCaptureReadsBackToTheSyntheticWorldPoints() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let recording = try R3DRecording(path: try fixture.write())
    #expect(recording.description.format == "Record3D .r3d")
    #expect(recording.description.app == "Record3D")
    #expect(recording.description.depthWidth == 256 && recording.description.depthHeight == 192)
    #expect(recording.description.colorWidth == 320 && recording.description.colorHeight == 240)
    #expect(recording.hasColor && recording.hasConfidence)
    let frame = try recording.frame(at: 2)
    #expect(frame.confidence == (try fixture.source.frame(at: 2)).confidence)
    #expect(frame.pose.axes == .openGL)
    guard case .jpeg(let bytes) = frame.color else {
      Issue.record("colour should be undecoded JPEG bytes")
      return
    }
    #expect(bytes.prefix(2) == [0xFF, 0xD8])
    try Self.expectSameWorld(recording, fixture.source)
  }

  @Test func nonIdentityFirstPoseIsKeptAsItIs() throws {
    let moved = AlteredRecording(
      base: SyntheticRecordingSource(options: R3DTestFixture.lidar),
      worldFromBaseWorld: Transform3D(
        axisAngle: SIMD3(0.2, 0.9, -0.1), translation: SIMD3(1.5, -0.3, 2)))
    let fixture = try R3DTestFixture(source: moved)
    defer { fixture.delete() }
    let recording = try R3DRecording(path: try fixture.write())
    let pose = try recording.frame(at: 0).pose.worldFromCamera
    let expected = try moved.frame(at: 0).pose.worldFromCamera
    #expect(pose != .identity)
    let difference = zip(pose.rowMajor, expected.rowMajor).map { abs($0 - $1) }.max() ?? 1
    #expect(difference < 1e-9)
    try Self.expectSameWorld(recording, moved)
  }

  @Test func oldFileWithoutDepthSizeInfersLandscape256By192() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let path = try fixture.write(options: R3DWriter.Options(writesDepthSize: false))
    let recording = try R3DRecording(path: path)
    #expect(!recording.metadata.hasDepthSize)
    #expect(recording.depthWidth == 256 && recording.depthHeight == 192)
    #expect(
      recording.description.notes.contains { $0.contains("no dw/dh") && $0.contains("256×192") })
    try Self.expectSameWorld(recording, fixture.source)
  }

  @Test func oldPortraitFileInfers192By256() throws {
    var options = R3DTestFixture.lidar
    (options.depthWidth, options.depthHeight, options.colorWidth, options.colorHeight) = (
      192, 256, 240, 320
    )
    options.frameCount = 4
    let fixture = try R3DTestFixture(options)
    defer { fixture.delete() }
    let recording = try R3DRecording(
      path: try fixture.write(options: R3DWriter.Options(writesDepthSize: false)))
    #expect(recording.depthWidth == 192 && recording.depthHeight == 256)
    try Self.expectSameWorld(recording, fixture.source)
  }

  @Test func trueDepthFileHas640By480DepthAndNoConfidence() throws {
    let fixture = try R3DTestFixture(R3DTestFixture.trueDepth)
    defer { fixture.delete() }
    for writesDepthSize in [true, false] {
      let path = try fixture.write(
        "front-\(writesDepthSize).r3d",
        options: R3DWriter.Options(
          writesDepthSize: writesDepthSize, writesConfidence: false, cameraType: 0))
      let recording = try R3DRecording(path: path)
      #expect(!recording.hasConfidence)
      #expect(recording.metadata.cameraType == 0)
      #expect(recording.depthWidth == 640 && recording.depthHeight == 480)
      #expect(recording.description.notes.contains("front TrueDepth camera (cameraType 0)"))
      #expect(try recording.frame(at: 1).confidence == nil)
      try Self.expectSameWorld(recording, fixture.source)
    }
  }

  @Test func perFrameIntrinsicCoefficientsOverrideK() throws {
    let zooming = AlteredRecording(
      base: SyntheticRecordingSource(options: R3DTestFixture.lidar), focalStep: 0.05)
    let fixture = try R3DTestFixture(source: zooming)
    defer { fixture.delete() }
    let withRows = try R3DRecording(
      path: try fixture.write(
        "rows.r3d", options: R3DWriter.Options(writesPerFrameIntrinsics: true)))
    let expected = try zooming.frame(at: 3).intrinsics
    let intrinsics = try withRows.frame(at: 3).intrinsics
    #expect(abs(intrinsics.fx - expected.fx) < 1e-9 && abs(intrinsics.cy - expected.cy) < 1e-9)
    #expect(intrinsics.width == 320 && intrinsics.height == 240)
    try Self.expectSameWorld(withRows, zooming)

    // Without the rows every frame has K, frame 0's intrinsics.
    let withoutRows = try R3DRecording(path: try fixture.write("k.r3d"))
    let k = try withoutRows.frame(at: 3).intrinsics
    let first = try zooming.frame(at: 0).intrinsics
    // JSON keeps the numbers to within a rounding of their last digit.
    #expect(abs(k.fx - first.fx) < 1e-9 && abs(k.cx - first.cx) < 1e-9 && k.width == first.width)
    #expect(abs(k.fx - expected.fx) > 1)
    #expect(
      withoutRows.description.notes.contains("no per-frame intrinsics: K used for every frame"))
  }

  @Test func framesReadConcurrentlyEqualFramesReadInTurn() throws {
    let fixture = try R3DTestFixture()
    defer { fixture.delete() }
    let recording = try R3DRecording(path: try fixture.write())
    let expected = try (0..<recording.frameCount).map { try recording.frame(at: $0) }
    let results = FrameSlots(count: recording.frameCount)
    DispatchQueue.concurrentPerform(iterations: recording.frameCount * 4) { iteration in
      let slot = iteration % recording.frameCount
      results.set(slot, try? recording.frame(at: slot))
    }
    #expect(results.all == expected.map { Optional($0) })
    #expect(throws: R3DError(.frameOutOfRange(index: 5, frameCount: 5), path: recording.path)) {
      try recording.frame(at: 5)
    }
  }

  @Test func depthSizeInferenceKnowsRecord3DSizesAndTheColourAspect() {
    func infer(_ bytes: Int, _ colorWidth: Int, _ colorHeight: Int) -> [Int]? {
      R3DRecording.inferDepthSize(
        byteCount: bytes, colorWidth: colorWidth, colorHeight: colorHeight
      )
      .map { [$0.0, $0.1] }
    }
    #expect(infer(256 * 192 * 4, 1920, 1440) == [256, 192])
    #expect(infer(256 * 192 * 4, 1440, 1920) == [192, 256])
    #expect(infer(640 * 480 * 4, 640, 480) == [640, 480])
    #expect(infer(480 * 640 * 4, 480, 640) == [480, 640])
    #expect(infer(160 * 90 * 4, 1920, 1080) == [160, 90])
    #expect(infer(1000, 1920, 1440) == nil)
    #expect(infer(7, 1920, 1440) == nil)
  }
}
