import CloudScrubCore
import Foundation
import TestSupport
import Testing

/// `synth --drift`, `refine`, `--poses` and `export --refine`, through the real binary.
@Suite struct RefineCommandLineTests {
  /// A 24-frame synthetic recording with a known drift, rendered once for the suite.
  static let recording: Result<URL, any Error> = Result {
    let folder = try TestData.makeTemporaryDirectory()
    let path = folder.appendingPathComponent("drift.csrec")
    let result = try CommandRunner.run([
      "synth", path.path, "--frames", "24", "--color", "rgb", "--drift", "0.05,2",
    ])
    guard result.status == 0 else { throw SynthFailed(message: result.standardError) }
    return path
  }

  struct SynthFailed: Error { var message: String }

  static func poseLines(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .filter { !$0.hasPrefix("#") }.map(String.init)
  }

  @Test func refineWritesOnePoseAFrameAndInfoReadsThem() throws {
    let recording = try Self.recording.get()
    let folder = recording.deletingLastPathComponent()
    let poses = folder.appendingPathComponent("refined.txt").path
    let refine = try CommandRunner.run(["refine", recording.path, "-o", poses])
    #expect(refine.status == 0, "\(refine.standardError)")
    #expect(refine.standardOutput.contains("wrote 24 poses to \(poses)"))
    #expect(refine.standardOutput.contains("alignment error  median"))
    let text = try String(contentsOfFile: poses, encoding: .utf8)
    #expect(text.contains("# camera axes: openGL (x right, y up, z backward)"))
    let lines = try Self.poseLines(poses)
    #expect(lines.count == 24)
    #expect(lines.allSatisfy { $0.split(separator: " ").count == 8 })
    // Frame 0 is never moved: its line is the recording's own pose.
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: 24,
        drift: SyntheticDrift(translationMeters: 0.05, rotationRadians: 2 * .pi / 180)))
    let first = lines[0].split(separator: " ").compactMap { Double($0) }
    let position = source.pose(at: 0).position
    #expect(abs(first[1] - position.x) < 1e-6 && abs(first[3] - position.z) < 1e-6)
    // Refinement takes the drift back: the last camera ends nearer its true place.
    let last = lines[23].split(separator: " ").compactMap { Double($0) }
    let truth = source.truePose(at: 23).position
    let drifted = source.pose(at: 23).position
    let after = SIMD3(last[1], last[2], last[3]) - truth
    let before = drifted - truth
    #expect((after * after).sum() < 0.04 * (before * before).sum())

    let info = try CommandRunner.run(["info", recording.path, "--poses", poses, "--alignment"])
    #expect(info.status == 0, "\(info.standardError)")
    #expect(info.standardOutput.contains("poses replaced from a trajectory (24 poses)"))
    #expect(info.standardOutput.contains("alignment"))
  }

  @Test func aTrajectoryOfTheWrongLengthIsAnErrorNamingBothCounts() throws {
    let recording = try Self.recording.get()
    let folder = recording.deletingLastPathComponent()
    let short = folder.appendingPathComponent("short.txt").path
    try Data((0..<23).map { "\($0) 0 0 0 0 0 0 1\n" }.joined().utf8)
      .write(to: URL(fileURLWithPath: short))
    for command in [["export", "-o", folder.appendingPathComponent("x.ply").path], ["info"]] {
      let result = try CommandRunner.run(
        [command[0], recording.path, "--poses", short] + command.dropFirst())
      #expect(result.status == 1)
      #expect(
        result.standardError.contains(
          "the trajectory has 23 poses but the recording has 24 frames: \(short)"))
    }
    let broken = folder.appendingPathComponent("broken.txt").path
    try Data("0 0 0 0 0 0 0 1\n1 0 0 nan 0 0 0 1\n".utf8).write(to: URL(fileURLWithPath: broken))
    let result = try CommandRunner.run(["info", recording.path, "--poses", broken])
    #expect(result.status == 1)
    #expect(result.standardError.contains("line 2: 'nan' is not finite: \(broken)"))
  }

  @Test func exportRefineUsesTheRefinedPoses() throws {
    let recording = try Self.recording.get()
    let result = try CommandRunner.run([
      "export", recording.path, "--refine", "--dry-run", "-o",
      recording.deletingLastPathComponent().appendingPathComponent("refined.ply").path,
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("dry run: nothing written"))
  }

  @Test func driftNeedsTwoNumbers() throws {
    let result = try CommandRunner.run(["synth", "/tmp/never.csrec", "--drift", "0.1"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("--drift needs METRES,DEGREES"))
  }
}
