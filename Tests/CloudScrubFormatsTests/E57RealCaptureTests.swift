import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// The real desk capture (`../shared/data/record3d-exr-desk`, every 24th frame) written
/// as one E57 scan per frame, each posed with its frame's camera-to-world transform:
/// it reads back here, and in pye57 where installed, as the world points it was made
/// from. Skipped when the shared data is absent.
@Suite(.enabled(if: TestData.sharedData != nil, "../shared/data is absent: skipped"))
struct E57RealCaptureTests {
  static func capture() throws -> (PointCloud, any RecordingSource) {
    let folder = try #require(TestData.shared("record3d-exr-desk"))
    let source = try Record3DEXRRecording(folder: folder)
    let loader = RecordingLoader(
      source: source, selection: FrameSelection(every: 24),
      unprojection: UnprojectionOptions(stride: 2), decoder: TurboJPEGDecoder())
    return (try loader.load().cloud(), source)
  }

  @Test func perFrameScansOfTheDeskReadBackAsTheWorldPoints() throws {
    let (cloud, source) = try Self.capture()
    #expect(cloud.count > 50_000)
    let scans = E57Scan.perFrame(cloud) { try? source.frameInfo(at: $0).pose.worldFromOpenCVCamera }
    #expect(scans.count == 10)
    #expect(scans.allSatisfy { $0.worldFromScan != .identity })
    let url = try E57WriterTests.folder().appendingPathComponent("desk.e57")
    try E57Writer.write(
      scans: scans,
      provenance: E57Provenance(
        description: "record3d-exr-desk, every 24th frame",
        entries: [.init(name: "source", value: "record3d-exr-desk")]),
      to: url)
    let back = try E57Reader.contents(of: url.path)
    #expect(back.scans.count == 10)
    // The loader appends frames in timeline order, as the scans are written.
    try #require(back.cloud.count == cloud.count)
    var worst: Float = 0
    for (a, b) in zip(back.cloud.positions, cloud.positions) {
      worst = max(worst, abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
    }
    // Float rounding of camera-frame coordinates a few metres from the camera.
    #expect(worst < 2e-6 * 8)
    #expect(back.cloud.colors == cloud.colors)

    guard let python = E57PyE57Tests.python else { return }
    let script = """
      import sys, pye57, numpy as np
      e = pye57.E57(sys.argv[1])
      xs = []
      for i in range(e.scan_count):
          d = e.read_scan(i, colors=True, transform=True)
          xs.append(np.stack([d["cartesianX"], d["cartesianY"], d["cartesianZ"]], axis=1))
      p = np.concatenate(xs)
      ref = np.fromfile(sys.argv[2], dtype=np.float32).reshape(-1, 3)
      print(e.scan_count, len(p), float(np.abs(p - ref).max()))
      """
    let reference = url.deletingLastPathComponent().appendingPathComponent("points.f32")
    try cloud.positions.withUnsafeBytes { try Data($0).write(to: reference) }
    let result = try CommandRunner.run(
      executable: python, ["-c", script, url.path, reference.path], timeoutSeconds: 300)
    #expect(result.status == 0, "\(result.standardError)")
    let fields = result.standardOutput.split(separator: " ")
    try #require(fields.count == 3)
    #expect(fields[0] == "10")
    #expect(Int(fields[1]) == cloud.count)
    #expect((Double(fields[2].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1) < 2e-5)
  }
}
