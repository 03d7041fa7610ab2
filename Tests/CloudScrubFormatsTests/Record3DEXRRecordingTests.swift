import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// The real 240-frame capture in `../shared/data/record3d-exr-desk`.
@Suite(.enabled(if: TestData.sharedData != nil))
struct Record3DEXRRecordingTests {
  let folder: String
  let recording: Record3DEXRRecording
  /// `metadata.json` read here, independently of the importer.
  let json: [String: Any]

  init() throws {
    folder = try #require(TestData.shared("record3d-exr-desk"))
    recording = try Record3DEXRRecording(folder: folder)
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/metadata.json"))
    json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func opensAll240FramesWithItsDescription() {
    #expect(recording.frameCount == 240)
    let description = recording.description
    #expect(description.format == "Record3D EXR+JPG export")
    #expect(description.app == "Record3D")
    #expect(description.framesPerSecond == 60)
    #expect(description.depthWidth == 192 && description.depthHeight == 256)
    #expect(description.colorWidth == 1440 && description.colorHeight == 1920)
    #expect(description.notes.isEmpty)
    #expect(recording.hasColor)
    #expect(recording.metadata.cameraType == 1)
  }

  @Test func columnMajorKPutsThePrincipalPointNearTheImageCentre() throws {
    let k = recording.metadata.intrinsics
    #expect(k.width == 1440 && k.height == 1920)
    #expect(abs(k.fx - 1453.7725830078125) < 1e-9 && k.fx == k.fy)
    #expect(abs(k.cx - 720) < 0.02 * 1440)
    #expect(abs(k.cy - 960) < 0.02 * 1920)
    // Read row-major by mistake, cx and cy would be the 0s in K[2] and K[5].
    let raw = try #require(json["K"] as? [Double])
    #expect(raw[2] == 0 && raw[5] == 0)
  }

  @Test func frameZeroCarriesItsDepthColourIntrinsicsAndPose() throws {
    let frame = try recording.frame(at: 0)
    #expect(frame.timestampSeconds == 0)
    #expect(frame.depth.width == 192 && frame.depth.height == 256)
    #expect(frame.depth.sampleType == .float32 && frame.depth.encoding == .depthMeters)
    #expect(frame.confidence == nil)
    guard case .jpeg(let bytes) = frame.color else {
      Issue.record("colour should be undecoded JPEG bytes")
      return
    }
    #expect(bytes.prefix(2) == [0xFF, 0xD8])
    let coefficients = try #require((json["perFrameIntrinsicCoeffs"] as? [[Double]])?.first)
    #expect(
      frame.intrinsics
        == CameraIntrinsics(
          fx: coefficients[0], fy: coefficients[1], cx: coefficients[2], cy: coefficients[3],
          width: 1440, height: 1920))
  }

  @Test func frameZeroPoseIsTheMetadataQuaternionAndTranslation() throws {
    let row = try #require((json["poses"] as? [[Double]])?.first)
    let pose = try recording.frame(at: 0).pose
    #expect(pose.axes == .openGL)
    #expect(
      pose.worldFromCamera
        == Transform3D(
          quaternion: SIMD4(row[0], row[1], row[2], row[3]),
          translation: SIMD3(row[4], row[5], row[6])))
    #expect(pose.position == SIMD3(row[4], row[5], row[6]))
    // Not the identity: the importer must not assume poses[0] is.
    #expect(pose.worldFromCamera != .identity)
  }

  @Test func frameTimestampsIncrease() throws {
    let times = try (0..<recording.frameCount).map {
      try recording.frameInfo(at: $0).timestampSeconds
    }
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    #expect(abs(times[239] - 239.0 / 60) < 0.05)
    #expect(try recording.frame(at: 239).timestampSeconds == times[239])
  }

  /// The data README gives 0.16–5.76 m; Python's OpenEXR reads the exact extremes
  /// 0.1627197265625 and 5.76171875 (half values) over the 240 frames.
  @Test func everyDepthFrameLiesInTheCapturesRange() throws {
    var lowest = Float.infinity
    var highest = -Float.infinity
    for index in 0..<recording.frameCount {
      let depth = try recording.depthReader.readDepth(
        path: Record3DEXRRecording.depthPath(folder: folder, frame: index))
      let meters = depth.metersGrid()
      lowest = min(lowest, meters.min() ?? .infinity)
      highest = max(highest, meters.max() ?? -.infinity)
    }
    #expect(lowest == 0.1627197265625)
    #expect(highest == 5.76171875)
  }

  @Test func framesReadConcurrentlyEqualFramesReadInTurn() throws {
    let indices = [0, 1, 59, 120, 239]
    let expected = try indices.map { try recording.frame(at: $0) }
    let shared = recording
    let results = FrameSlots(count: indices.count)
    DispatchQueue.concurrentPerform(iterations: indices.count) { slot in
      results.set(slot, try? shared.frame(at: indices[slot]))
    }
    #expect(results.all == expected.map { Optional($0) })
  }

  @Test func detectorKnowsTheExportFolder() throws {
    #expect(Record3DEXRRecording.looksLike(folder: folder))
    #expect(!Record3DEXRRecording.looksLike(folder: folder + "/depth"))
    #expect(!Record3DEXRRecording.looksLike(folder: try #require(TestData.shared("ply"))))
  }
}

/// Frames written by concurrent tasks, one slot each.
final class FrameSlots: @unchecked Sendable {
  private var slots: [CapturedFrame?]
  private let lock = NSLock()

  init(count: Int) { slots = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: CapturedFrame?) { lock.withLock { slots[index] = value } }

  var all: [CapturedFrame?] { lock.withLock { slots } }
}
