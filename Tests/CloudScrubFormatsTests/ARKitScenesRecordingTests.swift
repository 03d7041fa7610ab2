import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// ARKitScenes raw captures written from a synthetic capture.
@Suite struct ARKitScenesRecordingTests {
  let source = CaptureFixtures.synthetic(frames: 5)

  func export() throws -> String {
    let folder = try CaptureFixtures.folder()
    try ARKitScenesWriter().write(source, to: folder)
    return folder
  }

  func trajectoryLines(_ folder: String) throws -> [String] {
    try String(contentsOfFile: folder + "/lowres_wide.traj", encoding: .utf8)
      .split(separator: "\n").map(String.init)
  }

  func writeTrajectory(_ lines: [String], _ folder: String) throws {
    try CaptureFixtures.write(
      Array((lines.joined(separator: "\n") + "\n").utf8), to: folder + "/lowres_wide.traj")
  }

  @Test func importedWorldPointsMatchTheSyntheticScene() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let recording = try InputDetector.openRecording(folder)
    #expect(recording.frameCount == 5)
    #expect(recording.description.format == "ARKitScenes raw")
    #expect(recording.description.colorWidth == 128 && recording.description.depthWidth == 64)
    let info = try recording.frameInfo(at: 2)
    #expect(info.pose.axes == .openCV)
    #expect(info.timestampSeconds == 10.067)
    let frame = try recording.frame(at: 2)
    let expected = try source.frame(at: 2)
    #expect(frame.color == expected.color)
    #expect(frame.confidence == expected.confidence)
    try CaptureFixtures.expectSameWorldPoints(recording, source, frames: (0..<5).map { ($0, $0) })
  }

  @Test func trajectoryIsWorldToCameraAxisAngleAndTheWorldStaysZUp() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A camera 1.5 m above the origin looking straight down a z-up world: OpenCV's
    // forward (+z) is world −z, so the world-to-camera rotation is 180° about x.
    var lines = try trajectoryLines(folder)
    let stamp = String(lines[0].split(separator: " ")[0])
    lines[0] = "\(stamp) \(Double.pi) 0 0 0 0 1.5"
    try writeTrajectory(lines, folder)
    let recording = try ARKitScenesRecording(folder: folder)
    let pose = try recording.frameInfo(at: 0).pose
    #expect(recording.description.notes.contains("world kept z-up, as ARKitScenes gives it"))
    let position = pose.position
    #expect(abs(position.x) < 1e-12 && abs(position.y) < 1e-12 && abs(position.z - 1.5) < 1e-12)
    let forward = pose.worldFromOpenCVCamera.rotate(SIMD3(0, 0, 1))
    #expect(abs(forward.z + 1) < 1e-12)
    // Round trip of the writer's axis-angle for a general rotation.
    let rotation = Transform3D(axisAngle: SIMD3(0.3, -2.1, 0.9))
    let back = Transform3D(axisAngle: ARKitScenesText.axisAngle(of: rotation))
    #expect(zip(back.rowMajor, rotation.rowMajor).allSatisfy { abs($0 - $1) < 1e-12 })
  }

  @Test func posesMatchWithin5MillisecondsAndFarFramesAreSkipped() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var lines = try trajectoryLines(folder)
    func shifted(_ line: String, by seconds: Double) -> String {
      var fields = line.split(separator: " ").map(String.init)
      fields[0] = String(format: "%.3f", (Double(fields[0]) ?? 0) + seconds)
      return fields.joined(separator: " ")
    }
    lines[1] = shifted(lines[1], by: 0.004)
    lines[3] = shifted(lines[3], by: 0.010)
    try writeTrajectory(lines, folder)
    let recording = try ARKitScenesRecording(folder: folder)
    #expect(recording.frameCount == 4)
    let expectedTimes = [0, 1, 2, 4].map {
      Double(ARKitScenesWriter.stamp(source.timestampSeconds(at: $0)))
    }
    #expect(recording.frames.map(\.info.timestampSeconds) == expectedTimes)
    #expect(
      recording.description.notes.contains(
        "1 of 5 depth frames have no pose within 5 ms in lowres_wide.traj: skipped"))
    try CaptureFixtures.expectSameWorldPoints(recording, source, frames: [(1, 1), (3, 4)])
  }

  @Test func colourAndIntrinsicsMatchByNearestTimeWhenNamesDiffer() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let name = "41069021_\(ARKitScenesWriter.stamp(source.timestampSeconds(at: 2)))"
    let later = "41069021_\(ARKitScenesWriter.stamp(source.timestampSeconds(at: 2) + 0.002))"
    for (sub, suffix) in [("lowres_wide", ".png"), ("lowres_wide_intrinsics", ".pincam")] {
      try FileManager.default.moveItem(
        atPath: folder + "/\(sub)/\(name)\(suffix)", toPath: folder + "/\(sub)/\(later)\(suffix)")
    }
    let recording = try ARKitScenesRecording(folder: folder)
    #expect(recording.frames[2].colorName == later + ".png")
    let expected = try source.frame(at: 2).color
    #expect(try recording.frame(at: 2).color == expected)
  }

  @Test func malformedTrajectoryAndPincamAreNamedByLine() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var lines = try trajectoryLines(folder)
    lines[2] = "10.067 0.1 0.2"
    try writeTrajectory(lines, folder)
    let error = #expect(throws: CaptureFolderError.self) {
      try ARKitScenesRecording(folder: folder)
    }
    #expect(
      error?.reason
        == .badLine(
          line: 3, expected: "a timestamp, an axis-angle rotation and a translation (7 numbers)"))
    #expect(error?.description.hasSuffix(": " + folder + "/lowres_wide.traj") == true)
    try ARKitScenesWriter().write(source, to: folder)
    let pincam =
      folder
      + "/lowres_wide_intrinsics/41069021_\(ARKitScenesWriter.stamp(source.timestampSeconds(at: 1))).pincam"
    try CaptureFixtures.write(Array("128 96 fx 100 64 48".utf8), to: pincam)
    #expect(
      throws: CaptureFolderError(.badLine(line: 1, expected: "w h fx fy cx cy"), path: pincam)
    ) {
      try ARKitScenesRecording(folder: folder)
    }
  }

  @Test func truncatedDepthIsNamed() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let depthPath =
      folder
      + "/lowres_depth/41069021_\(ARKitScenesWriter.stamp(source.timestampSeconds(at: 3))).png"
    let whole = try FileBytes.read(depthPath)
    try CaptureFixtures.write(Array(whole.prefix(whole.count - 20)), to: depthPath)
    let recording = try ARKitScenesRecording(folder: folder)
    let error = #expect(throws: CaptureFolderError.self) { try recording.frame(at: 3) }
    #expect(error?.path == depthPath)
  }

  @Test func detectionGoesByContentAndInfoNamesTheFormat() throws {
    let folder = try export()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(try InputDetector.kind(of: folder) == .recording(format: "ARKitScenes"))
    #expect(!ARKitScenesRecording.looksLike(folder: folder + "/lowres_depth"))
    let empty = try CaptureFixtures.folder()
    defer { try? FileManager.default.removeItem(atPath: empty) }
    try CaptureFixtures.write([], to: empty + "/lowres_wide.traj")
    let error = #expect(throws: FileError.self) { try InputDetector.kind(of: empty) }
    #expect(error?.description.contains(ARKitScenesFormat.lookedFor) == true)
    let result = try CommandRunner.run(["info", folder])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("ARKitScenes raw (ARKitScenes (Apple))"))
  }
}
