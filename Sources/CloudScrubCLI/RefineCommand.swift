import CloudScrubCore
import CloudScrubSession
import Foundation

/// `cloudscrub refine PATH -o POSES.txt`: refines a recording's poses and writes them
/// as a TUM trajectory.
enum RefineCommand {
  /// Usage and prose of `refine --help`; the options are `OptionTable`'s rows.
  static let spec = CommandSpec(
    name: "refine",
    synopsis: ["refine PATH -o POSES.txt [--poses POSES.txt] [--local] [--hold-tilt]"],
    about: """
      Refines the camera poses of the recording at PATH against its own depth, and
      writes them as a TUM trajectory: one line a frame of the recording in its order,
      'timestamp tx ty tz qx qy qz qw', camera-to-world in the recording's world, in the
      recording's camera axes (a '# camera axes:' comment names them). Each frame is
      registered to the frames before it (point-to-plane ICP on a subsample of its depth,
      with a robust kernel), starting from its recorded pose corrected as the frame
      before it was; the first frame (the first after tracking started) never moves.
      Then loops are closed (unless --local): keyframes far apart in time that see the
      same surfaces are registered to each other, edges that no neighbouring edge
      confirms are dropped, and a pose graph of the keyframes, optimised with a robust
      kernel, spreads what they disagree by over the capture; frames between keyframes
      follow them. Prints the alignment error before and after and where it was worst,
      the loops closed, and the ghosting: the median distance between the surfaces of
      frames at least 120 apart, beside that of frames 6 apart (the depth's own noise)
      and that of the far pairs each registered alone (about the lowest any poses reach).
      The file is written under a temporary name and renamed into place.
      """)

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: spec)
    if parsed.has("help") { return Terminal.out(spec.help) }
    guard let output = parsed.value("output") else {
      throw UsageError("refine needs an output file: -o POSES.txt")
    }
    let path = parsed.positionals[0]
    let (recordingPath, recording) = try CommandInput.recording(
      path, poses: parsed.value("poses"), needs: "refine needs a recording")
    try InputLoader.checkHasFrames(recording, path: recordingPath)
    let progress = Terminal.progress("refining \(recordingPath)")
    let refined = try DriftAlignment.run(
      recording, options: RefinementFlags.options(parsed), refine: true, progress: progress.handler,
      measuresRecordedPoses: true)
    progress?.finish()
    let quality = try RefinementQuality(refined, source: recording)
    let trajectory = Trajectory(timestampsSeconds: refined.timestampsSeconds, poses: refined.poses)
    try TUMTrajectory.write(
      trajectory, to: output,
      comments: [
        "refined by CloudScrub from \(URL(fileURLWithPath: recordingPath).lastPathComponent)"
      ],
      protecting: [recordingPath] + (try ExportSteps.recordingFiles(recordingPath)))
    Terminal.out(
      summary(
        before: refined.recordedErrors ?? refined.errors, after: refined,
        up: recording.description.worldUp, output: output))
    Terminal.out(
      quality.lines.map {
        "  " + $0.label.padding(toLength: 17, withPad: " ", startingAt: 0) + $0.text
      }.joined(separator: "\n"))
  }

  /// What refine prints: the error's median and worst before (`before`: under the
  /// recording's poses) and after, how far the cameras moved and how far their
  /// corrections tilted the world's up axis (`up`).
  static func summary(
    before: FrameAlignmentErrors, after: DriftAlignment.Result, up: WorldUp, output: String
  ) -> String {
    func millimetres(_ meters: Float?) -> String {
      meters.map { RecordingInfo.fixed(Double($0) * 1000, 1) + " mm" } ?? "none"
    }
    var largest = 0.0
    var sum = 0.0
    var tiltSum = 0.0
    var tiltLargest = 0.0
    for (a, b) in zip(after.poses, after.originalPoses) {
      let d = a.position - b.position
      let moved = (d * d).sum().squareRoot()
      largest = max(largest, moved)
      sum += moved
      let tilt = up.tiltRadians(of: a.worldFromCamera * b.worldFromCamera.rigidInverse)
      tiltSum += tilt
      tiltLargest = max(tiltLargest, tilt)
    }
    let count = max(after.poses.count, 1)
    var lines = [
      "wrote \(after.poses.count) poses to \(output)",
      "  alignment error  median \(millimetres(before.medianMeters)) before, "
        + "\(millimetres(after.errors.medianMeters)) after; worst "
        + "\(millimetres(before.worstMeters)) before, "
        + "\(millimetres(after.errors.worstMeters)) after",
      "  cameras moved    mean \(millimetres(Float(sum / Double(count)))), "
        + "at most \(millimetres(Float(largest)))",
      "  tilted off up    mean " + RecordingInfo.fixed(tiltSum / Double(count) * 180 / .pi, 2)
        + "°, at most " + RecordingInfo.fixed(tiltLargest * 180 / .pi, 2) + "°",
    ]
    lines += RecordingInfo.stretchLines(before, times: after.timestampsSeconds).map {
      "  before: " + $0
    }
    return lines.joined(separator: "\n")
  }
}
