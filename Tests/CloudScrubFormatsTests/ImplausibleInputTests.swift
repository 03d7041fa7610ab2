import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// Sizes a header cannot mean, NaN and infinity in poses and intrinsics, and element
/// counts that cost no bytes: each is an error (or, for empty records, nothing to do),
/// never a trap, an allocation from the claim, or a loop over it.
@Suite struct ImplausibleInputTests {
  /// A one-frame recording with frame 0's header changed by `patch` (offsets from the
  /// frame payload's start) and both its checksums fixed.
  func recording(patch: (inout [UInt8], Int) -> Void) throws -> String {
    let frames = (0..<2).map { RecordingSamples.frame(index: $0, color: .jpeg) }
    var bytes = try RecordingSamples.bytes(try RecordingSamples.write(frames))
    let offsets = try CloudScrubRecording(path: try RecordingSamples.file(bytes)).frameOffsets
    patch(&bytes, offsets[0] + 16)
    RecordingFormatCorruptionTests.fixHeaderChecksum(of: offsets[0], in: &bytes)
    RecordingFormatCorruptionTests.fixChecksum(of: offsets[0], in: &bytes)
    return try RecordingSamples.file(bytes)
  }

  /// Why frame 0 of the recording at `path` cannot be read, after checking that the
  /// recording still opens (frame 1 is sound) and that its description says frame 0's
  /// sizes are unknown rather than repeating the claim.
  func frameZeroReason(_ path: String) throws -> String? {
    let recording = try CloudScrubRecording(path: path)
    #expect(recording.description.depthWidth == 0 && recording.description.depthHeight == 0)
    #expect(recording.description.notes.contains { $0.hasPrefix("frame 0's header is unreadable") })
    #expect(try recording.frame(at: 1) == RecordingSamples.frame(index: 1, color: .jpeg))
    do {
      _ = try recording.frame(at: 0)
      return nil
    } catch let error as RecordingFileError {
      guard case .malformedChunk(tag: "FRAM", frame: 0, _, let reason) = error.reason else {
        return "\(error)"
      }
      return reason
    }
  }

  @Test func frameZeroClaiming100000x100000IsRefusedAndNotShown() throws {
    let path = try recording { bytes, payload in
      bytes.storeLittleEndian(UInt32(100_000), at: payload + 200)
      bytes.storeLittleEndian(UInt32(100_000), at: payload + 204)
    }
    #expect(
      try frameZeroReason(path)
        == "frame header: depth map size 100000×100000 is outside 1…4096 pixels a side")
  }

  @Test func nanInThePoseOrIntrinsicsIsNamed() throws {
    let pose = try recording { bytes, payload in
      bytes.storeLittleEndian(Double.nan.bitPattern, at: payload + 24 + 8 * 12)
    }
    #expect(try frameZeroReason(pose) == "frame header: the camera pose holds a NaN or an infinity")
    let cx = try recording { bytes, payload in
      bytes.storeLittleEndian(Double.infinity.bitPattern, at: payload + 152 + 16)
    }
    #expect(try frameZeroReason(cx) == "frame header: intrinsics cx is inf")
    let time = try recording { bytes, payload in
      bytes.storeLittleEndian(Double.nan.bitPattern, at: payload + 16)
    }
    #expect(try frameZeroReason(time) == "frame header: the timestamp is nan")
  }

  @Test func theWriterRefusesWhatTheReaderWould() throws {
    let path = try TestData.makeTemporaryDirectory().appendingPathComponent("w.csrec").path
    let writer = try CloudScrubRecordingWriter(path: path)
    var frame = RecordingSamples.frame(index: 0, color: .none)
    frame.intrinsics.fy = .nan
    let error = #expect(throws: RecordingFileError.self) { try writer.append(frame) }
    #expect(error?.reason == .invalidFrame(frame: 0, reason: "intrinsics fy is nan"))
    var wide = RecordingSamples.frame(index: 0, color: .none)
    wide.depth = DepthMap(width: 5000, height: 1, meters: [Float](repeating: 1, count: 5000))
    wide.confidence = nil
    #expect(throws: RecordingFileError.self) { try writer.append(wide) }
    #expect(writer.frameCount == 0)
  }

  @Test func aStrideOrEveryBelowOneCountsAsOneInsteadOfTrapping() {
    var options = UnprojectionOptions(stride: 0)
    #expect(options.stride == 1)
    options.stride = -5
    #expect(options.stride == 1)
    options.stride = 3
    #expect(options.stride == 3)
    var selection = FrameSelection(range: 2...6, every: 0)
    #expect(selection.indices(frameCount: 10) == [2, 3, 4, 5, 6])
    selection.every = Int.min
    #expect(selection.indices(frameCount: 10) == [2, 3, 4, 5, 6])
    selection.every = 2
    #expect(selection.indices(frameCount: 10) == [2, 4, 6])
  }

  @Test func aDepthMapShorterThanItsSizeGivesNoDepthsInsteadOfTrapping() {
    // 3 × 2 float32 claims 24 bytes; 20 are there.
    let short = DepthMap(width: 3, height: 2, bytes: [UInt8](repeating: 0x3F, count: 20))
    #expect(!short.isComplete)
    #expect(short.metersGrid() == [Float](repeating: 0, count: 6))
    #expect(short.metersGrid(border: 1) == [Float](repeating: 0, count: 20))
    let whole = DepthMap(width: 3, height: 2, meters: [1, 2, 3, 4, 5, 6])
    #expect(whole.metersGrid() == [1, 2, 3, 4, 5, 6])
  }

  @Test func aCloudPastTheNeighbourSearchLimitIsAnErrorNamingTheStepAndTheWayOut() throws {
    // The real limit is 2^31 - 2 points; a lowered one shows the same path.
    let cloud = PointCloud(positions: (0..<12).map { Point3(Float($0), 0, 0) })
    for (options, step) in [
      (CleaningOptions(statistical: StatisticalOutlierOptions()), "statistical outlier removal"),
      (
        CleaningOptions(radius: RadiusOutlierOptions(radiusMeters: 1, minNeighbours: 1)),
        "radius outlier removal"
      ),
      (CleaningOptions(normalNeighbours: 5), "normal estimation"),
    ] {
      let error = #expect(throws: CleaningSizeError.self) {
        _ = try CleaningPipeline.run(cloud, options: options, neighbourPointLimit: 10)
      }
      #expect(error == CleaningSizeError(step: step, points: 12, limit: 10))
      #expect(error?.description.contains("--voxel") == true)
    }
    // Merged first, the cloud fits and the step runs.
    var merged = CleaningOptions(voxelSizeMeters: 2, normalNeighbours: 3)
    merged.crop = nil
    let result = try CleaningPipeline.run(cloud, options: merged, neighbourPointLimit: 10)
    #expect(result.cloud.count == 6)
    #expect(CleaningPipeline.neighbourStepPointLimit == Int(Int32.max) - 1)
  }

  @Test func unprojectingANonFinitePoseIsAnError() throws {
    var frame = RecordingSamples.frame(index: 0, color: .none)
    frame.pose.worldFromCamera.columns.3.x = .infinity
    #expect(throws: UnprojectionError.nonFinitePose) { try Unprojector.unproject(frame) }
    frame = RecordingSamples.frame(index: 0, color: .none)
    frame.intrinsics.cx = .nan
    #expect(throws: UnprojectionError.invalidIntrinsics) { try Unprojector.unproject(frame) }
  }

  @Test func aFinitePoseOrFocalLengthThatThrowsPointsPastAFloatIsAnError() throws {
    // Finite in Double, but every point would be infinite in the Float the cloud holds.
    var frame = RecordingSamples.frame(index: 0, color: .none)
    frame.pose.worldFromCamera.columns.3.x = 1e300
    #expect(throws: UnprojectionError.positionOutOfRange) { try Unprojector.unproject(frame) }
    frame = RecordingSamples.frame(index: 0, color: .none)
    frame.intrinsics.fx = 1e-300
    #expect(throws: UnprojectionError.positionOutOfRange) { try Unprojector.unproject(frame) }
    // 1e30 m is far, but a Float holds it: the points are kept, 1e30 off in x.
    let near = try Unprojector.unproject(RecordingSamples.frame(index: 0, color: .none))
    frame = RecordingSamples.frame(index: 0, color: .none)
    frame.pose.worldFromCamera.columns.3.x += 1e30
    let far = try Unprojector.unproject(frame)
    #expect(far.count == near.count && far.count > 0)
    #expect(far.positions.allSatisfy { $0.x == Float(1e30) })
    #expect(zip(far.positions, near.positions).allSatisfy { $0.y == $1.y && $0.z == $1.z })
    // A depth range too wide to bound with is bounded by the deepest pixel instead:
    // depths of 0.5–5.2 m give the same points as under the default range.
    let wide = UnprojectionOptions(depthRangeMeters: 0...Float.greatestFiniteMagnitude)
    frame = RecordingSamples.frame(index: 0, color: .none)
    frame.depth = DepthMap(width: 8, height: 6, meters: (0..<48).map { 0.5 + Float($0) * 0.1 })
    let all = try Unprojector.unproject(frame, options: wide)
    #expect(all.count > 0)
    #expect(all == (try Unprojector.unproject(frame)))
    // The sample's noise depths reach 1e38 m: under that range they would be infinite.
    #expect(throws: UnprojectionError.positionOutOfRange) {
      try Unprojector.unproject(RecordingSamples.frame(index: 0, color: .none), options: wide)
    }
  }

  @Test(arguments: ["ascii", "binary_little_endian"])
  func elementWithoutPropertiesAndAHugeCountReadsAtOnce(format: String) throws {
    var bytes = Array(
      """
      ply
      format \(format) 1.0
      element vertex 1
      property float x
      property float y
      property float z
      element nothing 9223372036854775807
      end_header

      """.utf8)
    if format == "ascii" {
      bytes += Array("1 2 3\n".utf8)
    } else {
      for value: Float in [1, 2, 3] {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
      }
    }
    let document = try PLYReader.read(data: bytes)
    #expect(document.cloud.positions == [Point3(1, 2, 3)])
    #expect(document.header.elements.last?.count == Int.max)
  }

  @Test func aHeaderLineOf64MBIsRefusedAfterItsFirst64KB() throws {
    let line = "comment " + String(repeating: "a", count: 64 << 20)
    let bytes = Array("ply\nformat ascii 1.0\n\(line)\nend_header\n".utf8)
    #expect(
      throws: PLYError.malformedHeader(
        line: 3, text: "comment " + String(repeating: "a", count: 32) + "…",
        reason: "a header line longer than 65536 bytes")
    ) { try PLYReader.read(data: bytes) }
    // A line just under the limit is still read.
    let long = "comment " + String(repeating: "b", count: 65_000)
    let fine = Array(
      "ply\nformat ascii 1.0\n\(long)\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
        .utf8)
    #expect(
      try PLYReader.read(data: fine).header.comments == [String(repeating: "b", count: 65_000)])
  }
}
