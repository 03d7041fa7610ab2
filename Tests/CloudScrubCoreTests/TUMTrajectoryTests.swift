import Foundation
import Testing

@testable import CloudScrubCore

@Suite struct TUMTrajectoryTests {
  static func trajectory() -> Trajectory {
    let poses = (0..<5).map { index in
      CameraPose(
        worldFromCamera: Transform3D(
          axisAngle: SIMD3(0.1 * Double(index), -0.2, 0.05 * Double(index) + 2.5),
          translation: SIMD3(Double(index), -0.5 * Double(index), 1.25)),
        axes: .openGL)
    }
    return Trajectory(timestampsSeconds: (0..<5).map { 10 + Double($0) / 60 }, poses: poses)
  }

  @Test func roundTripKeepsPosesTimesAndAxes() throws {
    let original = Self.trajectory()
    let text = TUMTrajectory.text(original, comments: ["from a test"])
    #expect(text.hasPrefix("# timestamp tx ty tz qx qy qz qw"))
    #expect(text.contains("# camera axes: openGL (x right, y up, z backward)"))
    #expect(text.contains("# from a test"))
    let read = try TUMTrajectory.parse(text)
    #expect(read.count == 5)
    for (a, b) in zip(original.poses, read.poses) {
      #expect(b.axes == .openGL)
      for (x, y) in zip(a.worldFromCamera.rowMajor, b.worldFromCamera.rowMajor) {
        #expect(abs(x - y) < 1e-8)
      }
    }
    for (a, b) in zip(original.timestampsSeconds, read.timestampsSeconds) {
      #expect(abs(a - b) < 1e-6)
    }
  }

  @Test func aLineHoldsTheTranslationAndTheQuaternion() throws {
    // A half turn about z: quaternion (0, 0, 1, 0).
    let pose = CameraPose(
      worldFromCamera: Transform3D(axisAngle: SIMD3(0, 0, Double.pi), translation: SIMD3(1, 2, 3)),
      axes: .openCV)
    let text = TUMTrajectory.text(Trajectory(timestampsSeconds: [0.5], poses: [pose]))
    let line = try #require(text.split(separator: "\n").last)
    #expect(
      line
        == "0.500000 1.000000000 2.000000000 3.000000000 0.000000000 0.000000000 1.000000000 0.000000000"
    )
  }

  @Test func withoutAnAxesCommentPosesAreOpenCV() throws {
    let read = try TUMTrajectory.parse("0 0 0 0 0 0 0 1\n1 0 0 1 0 0 0 1\n")
    #expect(read.poses.map(\.axes) == [.openCV, .openCV])
    #expect(read.poses[1].position == SIMD3(0, 0, 1))
  }

  @Test func malformedLinesNameTheirLine() {
    #expect(throws: TrajectoryProblem.malformedLine(line: 3, fields: 7)) {
      try TUMTrajectory.parse("# c\n0 0 0 0 0 0 0 1\n1 0 0 0 0 0 1\n")
    }
    #expect(throws: TrajectoryProblem.notANumber(line: 1, field: "x")) {
      try TUMTrajectory.parse("0 x 0 0 0 0 0 1\n")
    }
    #expect(throws: TrajectoryProblem.nonFinite(line: 2, field: "nan")) {
      try TUMTrajectory.parse("0 0 0 0 0 0 0 1\n1 nan 0 0 0 0 0 1\n")
    }
    #expect(throws: TrajectoryProblem.nonUnitQuaternion(line: 1, length: 2)) {
      try TUMTrajectory.parse("0 0 0 0 0 0 0 2\n")
    }
    #expect(throws: TrajectoryProblem.unknownAxes(line: 1, name: "sideways")) {
      try TUMTrajectory.parse("# camera axes: sideways\n0 0 0 0 0 0 0 1\n")
    }
    #expect(throws: TrajectoryProblem.noPoses) { try TUMTrajectory.parse("# nothing\n\n") }
  }

  @Test func quaternionsWithinTheToleranceAreNormalised() throws {
    let read = try TUMTrajectory.parse("0 0 0 0 0 0 0 1.0005\n")
    #expect(read.poses[0].worldFromCamera == .identity)
  }

  @Test func readingAFileNamesThePathLast() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cloudscrub-tum-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("poses.txt").path
    try TUMTrajectory.write(Self.trajectory(), to: path)
    #expect(try TUMTrajectory.read(path: path).count == 5)
    try Data("0 0 0 0 0 0 0 1\n0 0 0\n".utf8).write(to: URL(fileURLWithPath: path))
    do {
      _ = try TUMTrajectory.read(path: path)
      Issue.record("no error")
    } catch let error as TrajectoryError {
      #expect(error.reason == .malformedLine(line: 2, fields: 3))
      #expect("\(error)".hasSuffix(": " + path))
    }
  }

  @Test func replacedPosesNeedOneAFrame() throws {
    let source = SyntheticRecordingSource(options: SyntheticRecordingOptions(frameCount: 3))
    #expect(throws: TrajectoryProblem.countMismatch(poses: 2, frames: 3)) {
      try PosesReplacedRecording(source, poses: Array(Self.trajectory().poses.prefix(2)))
    }
    let poses = Array(Self.trajectory().poses.prefix(3))
    let replaced = try PosesReplacedRecording(source, poses: poses)
    #expect(try replaced.frameInfo(at: 1).pose == poses[1])
    #expect(try replaced.frameInfo(at: 1).timestampSeconds == source.timestampSeconds(at: 1))
  }

  @Test func quaternionOfARotationMatrixRoundTrips() {
    for angle in [0.0, 0.3, 1.5, 3.0, Double.pi] {
      for axis in [SIMD3(1.0, 0, 0), SIMD3(0, 1.0, 0), SIMD3(0, 0, 1.0), SIMD3(0.6, -0.8, 0)] {
        let t = Transform3D(axisAngle: axis * angle)
        let back = Transform3D(quaternion: t.rotationQuaternion, translation: .zero)
        for (x, y) in zip(t.rowMajor, back.rowMajor) { #expect(abs(x - y) < 1e-12) }
      }
    }
  }
}
