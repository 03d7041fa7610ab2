import CloudScrubCore
import Foundation

/// An ARKitScenes raw capture folder: `lowres_depth/<video>_<time>.png` (16-bit
/// millimetres), `confidence/<video>_<time>.png` (0–2), `lowres_wide/<video>_<time>.png`
/// (RGB), `lowres_wide_intrinsics/<video>_<time>.pincam` (`w h fx fy cx cy`) and
/// `lowres_wide.traj`.
///
/// One frame per depth map with a trajectory pose within 5 ms, in time order; the
/// time is the number after the last `_` of the file name. Confidence, colour and
/// intrinsics are matched by the same time string, colour (and its intrinsics) by the
/// nearest time within 50 ms otherwise. The trajectory's world-to-camera poses are
/// inverted to camera-to-world in OpenCV camera axes; the z-up world is kept as it is.
public struct ARKitScenesRecording: RecordingSource {
  /// One depth frame and the files and pose matched to it.
  public struct Frame: Equatable, Sendable {
    /// The depth map's file name in `lowres_depth`.
    public var depthName: String
    public var confidenceName: String?
    /// The colour image's file name in `lowres_wide`.
    public var colorName: String?
    public var info: FrameInfo
  }

  /// How far a pose's time may lie from a depth frame's.
  public static let poseToleranceSeconds = 0.005
  /// How far a colour image's time may lie from a depth frame's.
  public static let colorToleranceSeconds = 0.05

  public let folder: String
  /// The frames in time order.
  public let frames: [Frame]
  public let description: RecordingDescription
  public var frameCount: Int { frames.count }

  /// Whether `folder` holds `lowres_wide.traj` and `lowres_depth/*.png`. Lists the
  /// folder; reads no file.
  public static func looksLike(folder: String) -> Bool {
    FileManager.default.fileExists(atPath: path(folder, "lowres_wide.traj"))
      && CaptureFolderFiles.names(in: path(folder, "lowres_depth")).contains {
        $0.hasSuffix(".png")
      }
  }

  /// Opens the capture: reads the trajectory, matches poses, colour and intrinsics to
  /// the depth frames by time and parses the matched `.pincam` files. Decodes no image.
  ///
  /// - Throws: `CaptureFolderError` when there is no depth frame, the trajectory or a
  ///   `.pincam` file is malformed (naming the line), or no intrinsics exist.
  public init(folder: String) throws {
    self.folder = folder
    guard CaptureFolderFiles.isFolder(folder) else {
      throw CaptureFolderError(.notAFolder, path: folder)
    }
    let depth = Self.timedFiles(in: Self.path(folder, "lowres_depth"), suffix: ".png")
    guard let firstDepth = depth.first else {
      throw CaptureFolderError(.noFrames(expected: "lowres_depth/<video>_<time>.png"), path: folder)
    }
    let trajectoryPath = Self.path(folder, "lowres_wide.traj")
    let poses = try ARKitScenesText.trajectory(
      try CaptureFolderFiles.read(trajectoryPath, what: "trajectory lowres_wide.traj"),
      path: trajectoryPath)
    let confidence = Dictionary(
      Self.timedFiles(in: Self.path(folder, "confidence"), suffix: ".png").map {
        ($0.stamp, $0.name)
      },
      uniquingKeysWith: { first, _ in first })
    let colors = Self.timedFiles(in: Self.path(folder, "lowres_wide"), suffix: ".png")
    let pincams = Self.timedFiles(
      in: Self.path(folder, "lowres_wide_intrinsics"), suffix: ".pincam")
    guard !pincams.isEmpty else {
      throw CaptureFolderError(
        .missingFile(what: "intrinsics lowres_wide_intrinsics/<video>_<time>.pincam"), path: folder)
    }
    let pincamByStamp = Dictionary(
      pincams.map { ($0.stamp, $0) }, uniquingKeysWith: { first, _ in first })
    let colorByStamp = Dictionary(
      colors.map { ($0.stamp, $0) }, uniquingKeysWith: { first, _ in first })

    let times = depth.map(\.seconds)
    let poseMatch = TimePairing.nearest(
      to: times, in: poses.map(\.timestampSeconds), toleranceSeconds: Self.poseToleranceSeconds)
    let colorMatch = TimePairing.nearest(
      to: times, in: colors.map(\.seconds), toleranceSeconds: Self.colorToleranceSeconds)
    let pincamMatch = TimePairing.nearest(
      to: times, in: pincams.map(\.seconds), toleranceSeconds: .infinity)

    var frames: [Frame] = []
    var intrinsicsCache: [String: CameraIntrinsics] = [:]
    for (k, file) in depth.enumerated() {
      guard let poseIndex = poseMatch[k] else { continue }
      let color = colorByStamp[file.stamp] ?? colorMatch[k].map { colors[$0] }
      // The colour image's own intrinsics; the depth frame's time's, or the nearest.
      let pincam =
        color.flatMap { pincamByStamp[$0.stamp] } ?? pincamByStamp[file.stamp]
        ?? pincamMatch[k].map { pincams[$0] }
      guard let pincam else { continue }
      let intrinsics: CameraIntrinsics
      if let cached = intrinsicsCache[pincam.name] {
        intrinsics = cached
      } else {
        let path = Self.path(folder, "lowres_wide_intrinsics/" + pincam.name)
        intrinsics = try ARKitScenesText.intrinsics(
          try CaptureFolderFiles.read(path, what: "intrinsics \(pincam.name)"), path: path)
        intrinsicsCache[pincam.name] = intrinsics
      }
      frames.append(
        Frame(
          depthName: file.name, confidenceName: confidence[file.stamp], colorName: color?.name,
          info: FrameInfo(
            timestampSeconds: file.seconds, intrinsics: intrinsics,
            pose: CameraPose(worldFromCamera: poses[poseIndex].worldFromCamera, axes: .openCV))))
    }
    guard !frames.isEmpty else {
      throw CaptureFolderError(
        .noFrames(expected: "depth frames with a lowres_wide.traj pose within 5 ms"),
        path: trajectoryPath)
    }
    self.frames = frames

    let depthPath = Self.path(folder, "lowres_depth/" + firstDepth.name)
    let header = try CaptureFolderFiles.read(depthPath, what: "depth image \(firstDepth.name)")
    let depthSize = try CaptureFolderFiles.depthPNGSize(header, path: depthPath)
    var notes = ["world kept z-up, as ARKitScenes gives it"]
    if frames.count < depth.count {
      notes.append(
        "\(depth.count - frames.count) of \(depth.count) depth frames have no pose within 5 ms "
          + "in lowres_wide.traj: skipped")
    }
    let uncoloured = frames.filter { $0.colorName == nil }.count
    if uncoloured > 0 {
      notes.append("\(uncoloured) frames have no lowres_wide image within 50 ms")
    }
    let colored = frames.first { $0.colorName != nil }
    let span = frames[frames.count - 1].info.timestampSeconds - frames[0].info.timestampSeconds
    description = RecordingDescription(
      format: "ARKitScenes raw", app: "ARKitScenes (Apple)",
      framesPerSecond: frames.count > 1 && span > 0 ? Double(frames.count - 1) / span : nil,
      depthWidth: depthSize.width, depthHeight: depthSize.height,
      colorWidth: colored?.info.intrinsics.width, colorHeight: colored?.info.intrinsics.height,
      notes: notes, worldUp: .z)
  }

  // MARK: - Frames

  /// Frame `index`'s time, intrinsics and pose, matched when the recording was opened.
  ///
  /// - Throws: `CaptureFolderError.frameOutOfRange` for an index outside the frames.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    try CaptureFolderFiles.frame(frames, index, folder: folder).info
  }

  /// Reads frame `index`: depth in metres, confidence when present, and the colour
  /// image decoded from its PNG (`.rgb`).
  ///
  /// - Throws: `CaptureFolderError` naming the file when one is missing, unreadable, of
  ///   the wrong size or not a valid PNG.
  public func frame(at index: Int) throws -> CapturedFrame {
    let info = try frameInfo(at: index)
    let frame = frames[index]
    let (width, height) = (description.depthWidth, description.depthHeight)
    let depthPath = Self.path(folder, "lowres_depth/" + frame.depthName)
    let depth = try CaptureFolderFiles.millimeterDepth(
      try CaptureFolderFiles.read(depthPath, what: "depth image \(frame.depthName)"),
      path: depthPath, expectedWidth: width, expectedHeight: height)
    var confidence: ConfidenceMap?
    if let name = frame.confidenceName {
      let path = Self.path(folder, "confidence/" + name)
      confidence = try CaptureFolderFiles.confidence(
        try CaptureFolderFiles.read(path, what: "confidence image \(name)"), path: path,
        expectedWidth: width, expectedHeight: height)
    }
    var color: ColorImage?
    if let name = frame.colorName {
      let path = Self.path(folder, "lowres_wide/" + name)
      let bytes = try CaptureFolderFiles.read(path, what: "colour image \(name)")
      do {
        color = .rgb(try PNGCodec.decodeRGB(bytes, path: path))
      } catch let error as PNGError {
        throw CaptureFolderError(.badImage(message: error.reason), path: path)
      }
    }
    return CapturedFrame(
      timestampSeconds: info.timestampSeconds, depth: depth, confidence: confidence, color: color,
      intrinsics: info.intrinsics, pose: info.pose)
  }

  // MARK: - Helpers

  /// A file named `<video>_<time><suffix>`: its name, its time string and seconds.
  struct TimedFile: Equatable {
    var name: String
    var stamp: String
    var seconds: Double
  }

  /// The files in `folder` ending in `suffix` whose name ends in `_<number>`, sorted
  /// by time.
  static func timedFiles(in folder: String, suffix: String) -> [TimedFile] {
    CaptureFolderFiles.names(in: folder).compactMap { name -> TimedFile? in
      guard name.hasSuffix(suffix) else { return nil }
      let stem = name.dropLast(suffix.count)
      let stamp = String(stem.split(separator: "_", omittingEmptySubsequences: false).last ?? stem)
      guard let seconds = Double(stamp), seconds.isFinite else { return nil }
      return TimedFile(name: name, stamp: stamp, seconds: seconds)
    }.sorted { ($0.seconds, $0.name) < ($1.seconds, $1.name) }
  }

  static func path(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }
}

/// ARKitScenes' raw capture folder.
public enum ARKitScenesFormat: RecordingFormat {
  public static let name = "ARKitScenes"
  public static let lookedFor =
    "a folder with lowres_wide.traj and lowres_depth/<video>_<time>.png (ARKitScenes)"
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    isFolder && ARKitScenesRecording.looksLike(folder: path)
  }
  public static func open(_ path: String) throws -> any RecordingSource {
    try ARKitScenesRecording(folder: path)
  }
}
