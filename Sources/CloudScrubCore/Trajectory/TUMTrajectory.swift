import Foundation

/// What is wrong in a trajectory file, with the line it is on.
public enum TrajectoryProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// A line that is not a comment and does not hold eight numbers.
  case malformedLine(line: Int, fields: Int)
  /// A field that is not a number.
  case notANumber(line: Int, field: String)
  /// A value that is not finite (nan, inf).
  case nonFinite(line: Int, field: String)
  /// A quaternion whose length is off 1 by more than `TUMTrajectory.unitTolerance`.
  case nonUnitQuaternion(line: Int, length: Double)
  /// A `# camera axes:` comment naming axes this reader does not know.
  case unknownAxes(line: Int, name: String)
  case noPoses
  /// A file bigger than `TUMTrajectory.maximumBytes`.
  case tooLarge(bytes: Int, limit: Int)
  /// The file's pose count differs from the recording's frame count.
  case countMismatch(poses: Int, frames: Int)

  public var description: String {
    switch self {
    case .malformedLine(let line, let fields):
      "line \(line): \(fields) fields, expected 8 (timestamp tx ty tz qx qy qz qw)"
    case .notANumber(let line, let field): "line \(line): '\(field)' is not a number"
    case .nonFinite(let line, let field): "line \(line): '\(field)' is not finite"
    case .nonUnitQuaternion(let line, let length):
      "line \(line): quaternion length \(length), not 1 (tolerance \(TUMTrajectory.unitTolerance))"
    case .unknownAxes(let line, let name):
      "line \(line): unknown camera axes '\(name)' (openGL or openCV)"
    case .noPoses: "no poses in the file"
    case .tooLarge(let bytes, let limit):
      "the file has \(bytes) bytes; trajectories over \(limit) bytes (millions of poses) are refused"
    case .countMismatch(let poses, let frames):
      "the trajectory has \(poses) poses but the recording has \(frames) frames"
    }
  }
}

/// A trajectory file's error: what, where, and the file (last).
public typealias TrajectoryError = InputFileError<TrajectoryProblem>

/// A camera trajectory: one time and camera-to-world pose a frame, in order.
public struct Trajectory: Equatable, Sendable {
  public var timestampsSeconds: [Double]
  public var poses: [CameraPose]

  public init(timestampsSeconds: [Double], poses: [CameraPose]) {
    precondition(timestampsSeconds.count == poses.count, "one time a pose")
    self.timestampsSeconds = timestampsSeconds
    self.poses = poses
  }

  public var count: Int { poses.count }
}

/// The TUM trajectory format: one line a pose, `timestamp tx ty tz qx qy qz qw`
/// (seconds; camera-to-world translation in metres and rotation as a unit quaternion),
/// `#` comment lines anywhere.
///
/// CloudScrub writes poses in the recording's world and the recording's own camera
/// axes, which a comment line names: `# camera axes: openGL (x right, y up, z
/// backward)` or `# camera axes: openCV (x right, y down, z forward)`. A file without
/// that comment is read as OpenCV axes (the TUM RGB-D benchmark's optical frame).
public enum TUMTrajectory {
  /// How far from 1 a quaternion's length may be (six printed digits round to this).
  public static let unitTolerance = 1e-3

  /// The text of `trajectory`, with `comments` (without `#`) after the format line.
  /// Every pose must use the same camera axes (the first pose's are named).
  public static func text(_ trajectory: Trajectory, comments: [String] = []) -> String {
    let axes = trajectory.poses.first?.axes ?? .openCV
    var lines = [
      "# timestamp tx ty tz qx qy qz qw (camera-to-world, metres, seconds)",
      "# camera axes: \(axes.rawValue) (\(describe(axes)))",
    ]
    lines += comments.map { "# " + $0 }
    for (time, pose) in zip(trajectory.timestampsSeconds, trajectory.poses) {
      var transform = pose.worldFromCamera
      if pose.axes != axes {
        transform = transform * axes.openCVFromSelf.rigidInverse * pose.axes.openCVFromSelf
      }
      let t = transform.translation
      let q = transform.rotationQuaternion
      let numbers = [t.x, t.y, t.z, q.x, q.y, q.z, q.w].map { String(format: "%.9f", $0) }
      lines.append(String(format: "%.6f", time) + " " + numbers.joined(separator: " "))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes `trajectory` to `path` atomically (a temporary file renamed into place).
  ///
  /// - Throws: `FileError` when the file cannot be written or would overwrite an input.
  public static func write(
    _ trajectory: Trajectory, to path: String, comments: [String] = [], protecting: [String] = []
  ) throws {
    let writer = try AtomicFileWriter(path: path, protecting: protecting)
    try writer.write(Array(text(trajectory, comments: comments).utf8))
    try writer.commit()
  }

  /// The largest trajectory file read: 256 MiB, over two million poses at 120 bytes a
  /// line (ten hours at 60 frames a second), so a file of any size is refused before
  /// its poses fill memory.
  public static let maximumBytes = 256 << 20

  /// Parses a trajectory file's text.
  ///
  /// - Throws: `TrajectoryProblem` naming the line of the first problem.
  public static func parse(_ text: String) throws(TrajectoryProblem) -> Trajectory {
    var text = text
    return try text.withUTF8 { utf8 in
      Result { () throws(TrajectoryProblem) in try parse(UnsafeRawBufferPointer(utf8)) }
    }.get()
  }

  /// Parses a trajectory file's bytes: ASCII numbers, so bytes that are not UTF-8 can
  /// only be in comments or in a field that is then no number. Each line's fields are
  /// looked at without copying the line, so one huge line costs one pass.
  ///
  /// - Throws: `TrajectoryProblem` naming the line of the first problem.
  public static func parse(_ bytes: UnsafeRawBufferPointer) throws(TrajectoryProblem)
    -> Trajectory
  {
    var axes = CameraAxes.openCV
    var times: [Double] = []
    var transforms: [Transform3D] = []
    var lines = TextLines(bytes)
    while let line = lines.next() {
      let number = lines.lineNumber - 1
      guard let first = lines.firstByte(line) else { continue }
      if first == UInt8(ascii: "#") {
        if let named = try namedAxes(lines, line, number: number) { axes = named }
        continue
      }
      let fields = lines.tokens(line, commas: true, limit: 9)
      guard fields.count == 8 else {
        let count = fields.count < 9 ? fields.count : lines.tokenCount(line, commas: true)
        throw .malformedLine(line: number, fields: count)
      }
      var values: [Double] = []
      for field in fields {
        let text = lines.text(field)
        guard let value = Double(text) else {
          throw .notANumber(line: number, field: InputExcerpt.of(text))
        }
        guard value.isFinite else { throw .nonFinite(line: number, field: InputExcerpt.of(text)) }
        values.append(value)
      }
      let q = SIMD4(values[4], values[5], values[6], values[7])
      let length = (q * q).sum().squareRoot()
      guard abs(length - 1) <= unitTolerance else {
        throw .nonUnitQuaternion(line: number, length: length)
      }
      times.append(values[0])
      transforms.append(
        Transform3D(quaternion: q / length, translation: SIMD3(values[1], values[2], values[3])))
    }
    guard !transforms.isEmpty else { throw .noPoses }
    return Trajectory(
      timestampsSeconds: times,
      poses: transforms.map { CameraPose(worldFromCamera: $0, axes: axes) })
  }

  /// The axes a `# camera axes: NAME` comment names, or nil for any other comment.
  private static func namedAxes(
    _ lines: TextLines, _ line: Range<Int>, number: Int
  ) throws(TrajectoryProblem) -> CameraAxes? {
    // Only a comment that can be the axes line is decoded, not a huge one.
    let prefix = "camera axes:"
    let body = lines.text(line.prefix(prefix.utf8.count + 80)).drop { $0 == " " || $0 == "\t" }
      .dropFirst().drop { $0 == " " || $0 == "\t" }
    guard body.lowercased().hasPrefix(prefix) else { return nil }
    let name =
      body.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
      .map(String.init) ?? ""
    let wanted = name.lowercased()
    guard let named = CameraAxes.allCases.first(where: { $0.rawValue.lowercased() == wanted })
    else { throw .unknownAxes(line: number, name: InputExcerpt.of(name)) }
    return named
  }

  /// Reads the trajectory file at `path`.
  ///
  /// - Throws: `TrajectoryError` for its content or size, `FileError` when it cannot be
  ///   read or is not a regular file (a pipe or device is refused at once).
  public static func read(path: String) throws -> Trajectory {
    let file = try MappedFile(path: path)
    guard file.bytes.count <= maximumBytes else {
      throw TrajectoryError(.tooLarge(bytes: file.bytes.count, limit: maximumBytes), path: path)
    }
    let parsed = withExtendedLifetime(file) {
      Result { () throws(TrajectoryProblem) in try parse(file.bytes) }
    }
    try file.checkIntact()
    switch parsed {
    case .success(let trajectory): return trajectory
    case .failure(let problem): throw TrajectoryError(problem, path: path)
    }
  }

  static func describe(_ axes: CameraAxes) -> String {
    switch axes {
    case .openGL: "x right, y up, z backward"
    case .openCV: "x right, y down, z forward"
    }
  }
}
