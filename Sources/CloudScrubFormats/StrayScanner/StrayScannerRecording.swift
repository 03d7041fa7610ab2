import CloudScrubCore
import Foundation

/// A Stray Scanner export: a folder of `rgb.mp4`, `depth/<frame>.png` (16-bit
/// millimetres; older exports `depth/<frame>.npy`), `confidence/<frame>.png` (levels
/// 0–2), `camera_matrix.csv` and `odometry.csv`.
///
/// One frame per `odometry.csv` row with a depth file; the row's `frame` column numbers
/// both its files and its video frame. Poses are camera-to-world, position and a
/// scalar-last quaternion, in OpenCV camera axes (x right, y down, z forward).
/// Intrinsics are row-major in `camera_matrix.csv`, for the video's size; per-frame
/// `fx, fy, cx, cy` columns, when a fork writes them, override it. The CSV files are
/// parsed once when opening; images and video frames are decoded in `frame(at:)`.
public struct StrayScannerRecording: RecordingSource {
  /// One depth frame: its number (file names, video frame) and its odometry.
  public struct Frame: Equatable, Sendable {
    /// The `frame` column: `depth/<number>.png` and video frame `number`.
    public var number: Int
    public var info: FrameInfo
    /// Whether its depth is a NumPy file rather than a PNG.
    public var depthIsNumPy: Bool
    public var hasConfidence: Bool
  }

  public let folder: String
  public let frames: [Frame]
  public let description: RecordingDescription
  public var frameCount: Int { frames.count }
  /// The decoder of `rgb.mp4`, or `nil` when the export has none.
  let video: VideoDecoder?

  /// Whether `folder` has `odometry.csv`, `camera_matrix.csv` and a `depth` folder.
  /// Reads no file.
  public static func looksLike(folder: String) -> Bool {
    let manager = FileManager.default
    return manager.fileExists(atPath: path(folder, "odometry.csv"))
      && manager.fileExists(atPath: path(folder, "camera_matrix.csv"))
      && CaptureFolderFiles.isFolder(path(folder, "depth"))
  }

  /// Opens the export: parses both CSV files, reads the first depth file's size and
  /// opens the video.
  ///
  /// - Throws: `CaptureFolderError` naming the file and line at fault, or
  ///   `VideoError` when `rgb.mp4` exists but cannot be opened.
  public init(folder: String) throws {
    self.folder = folder
    guard CaptureFolderFiles.isFolder(folder) else {
      throw CaptureFolderError(.notAFolder, path: folder)
    }
    let odometryPath = Self.path(folder, "odometry.csv")
    let rows = try StrayScannerFiles.odometry(
      try CaptureFolderFiles.read(odometryPath, what: "odometry file"), path: odometryPath)
    let matrixPath = Self.path(folder, "camera_matrix.csv")
    let k = try StrayScannerFiles.cameraMatrix(
      try CaptureFolderFiles.read(matrixPath, what: "camera matrix file"), path: matrixPath)

    let depthNames = Set(CaptureFolderFiles.names(in: Self.path(folder, "depth")))
    let confidenceNames = Set(CaptureFolderFiles.names(in: Self.path(folder, "confidence")))
    let kept = rows.filter {
      depthNames.contains(Self.name($0.frame, "png"))
        || depthNames.contains(Self.name($0.frame, "npy"))
    }
    guard let first = kept.first else {
      throw CaptureFolderError(
        .noFrames(expected: "odometry.csv rows whose frame has a depth/NNNNNN.png or .npy"),
        path: folder)
    }

    let videoPath = Self.path(folder, "rgb.mp4")
    let hasVideo = FileManager.default.fileExists(atPath: videoPath)
    // FFmpeg would wait forever on a named pipe: refuse anything but a file first.
    if hasVideo, try InputDetector.regularFileOrFolder(videoPath) {
      throw FileError(.notARegularFile, path: videoPath)
    }
    video = hasVideo ? try VideoDecoder(path: videoPath) : nil
    if let video,
      let problem = ImageSizeLimits.colorProblem(width: video.width, height: video.height)
    {
      throw CaptureFolderError(.badImage(message: "the video claims a \(problem)"), path: videoPath)
    }
    let depthSize = try Self.depthSize(
      folder: folder, frame: first.frame, numPy: !depthNames.contains(Self.name(first.frame, "png"))
    )
    guard
      let imageSize = video.map({ (width: $0.width, height: $0.height) })
        ?? ScannerAppRecording.guessedColorSize(
          cx: k.cx, depthWidth: depthSize.width, depthHeight: depthSize.height)
    else {
      throw CaptureFolderError(
        .badLine(
          line: 1, expected: "a cx of at most \(ImageSizeLimits.maxColorSide / 2) (is \(k.cx))"),
        path: matrixPath)
    }

    frames = kept.map { row in
      let coefficients = row.intrinsics ?? SIMD4(k.fx, k.fy, k.cx, k.cy)
      let intrinsics = CameraIntrinsics(
        fx: coefficients[0], fy: coefficients[1], cx: coefficients[2], cy: coefficients[3],
        width: imageSize.width, height: imageSize.height)
      let pose = CameraPose(
        worldFromCamera: Transform3D(quaternion: row.quaternion, translation: row.position),
        axes: .openCV)
      return Frame(
        number: row.frame,
        info: FrameInfo(timestampSeconds: row.timestamp, intrinsics: intrinsics, pose: pose),
        depthIsNumPy: !depthNames.contains(Self.name(row.frame, "png")),
        hasConfidence: confidenceNames.contains(Self.name(row.frame, "png")))
    }

    var notes: [String] = []
    if rows.count > kept.count {
      notes.append("\(rows.count - kept.count) odometry rows without a depth file skipped")
    }
    if kept.contains(where: { $0.intrinsics != nil }) {
      notes.append("per-frame intrinsics from odometry.csv")
    }
    if frames.contains(where: \.depthIsNumPy) {
      notes.append("depth from NumPy .npy files (older export)")
    }
    if let video {
      let needed = (frames.map(\.number).max() ?? 0) + 1
      if video.declaredFrameCount > 0 && video.declaredFrameCount < needed {
        notes.append(
          "rgb.mp4 has \(video.declaredFrameCount) frames for frame numbers up to \(needed - 1): later frames cannot be read"
        )
      }
    } else {
      notes.append(
        "no rgb.mp4: points are uncoloured; intrinsics taken as for a \(imageSize.width)×\(imageSize.height) image"
      )
    }
    let withoutConfidence = frames.filter { !$0.hasConfidence }.count
    if withoutConfidence > 0 {
      notes.append("\(withoutConfidence) of \(frames.count) frames have no confidence PNG")
    }
    let span = kept[kept.count - 1].timestamp - first.timestamp
    description = RecordingDescription(
      format: "Stray Scanner export", app: "Stray Scanner",
      framesPerSecond: video?.framesPerSecond
        ?? (kept.count > 1 && span > 0 ? Double(kept.count - 1) / span : nil),
      depthWidth: depthSize.width, depthHeight: depthSize.height,
      colorWidth: video?.width, colorHeight: video?.height, notes: notes)
  }

  // MARK: - Frames

  /// Frame `index`'s time, intrinsics and pose, parsed when the recording was opened.
  ///
  /// - Throws: `CaptureFolderError.frameOutOfRange` for an index outside the frames.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    try CaptureFolderFiles.frame(frames, index, folder: folder).info
  }

  /// Reads frame `index`: depth in metres, confidence when present, and its video frame
  /// (YCbCr 4:2:0 as decoded).
  ///
  /// - Throws: `CaptureFolderError` naming a missing, damaged or wrongly sized depth or
  ///   confidence file, or `VideoError` when the video lacks the frame.
  public func frame(at index: Int) throws -> CapturedFrame {
    let info = try frameInfo(at: index)
    let frame = frames[index]
    let width = description.depthWidth
    let height = description.depthHeight
    let depthPath = Self.path(
      folder, "depth/" + Self.name(frame.number, frame.depthIsNumPy ? "npy" : "png"))
    let depthBytes = try CaptureFolderFiles.read(depthPath, what: "depth of frame \(frame.number)")
    let depth: DepthMap
    if frame.depthIsNumPy {
      let image = try StrayScannerFiles.npyUInt16(depthBytes, path: depthPath)
      guard image.width == width, image.height == height else {
        throw CaptureFolderError(
          .wrongImageSize(
            width: image.width, height: image.height, expectedWidth: width, expectedHeight: height),
          path: depthPath)
      }
      depth = DepthMap(width: width, height: height, meters: image.samples.map { Float($0) / 1000 })
    } else {
      depth = try CaptureFolderFiles.millimeterDepth(
        depthBytes, path: depthPath, expectedWidth: width, expectedHeight: height)
    }
    var confidence: ConfidenceMap?
    if frame.hasConfidence {
      let path = Self.path(folder, "confidence/" + Self.name(frame.number, "png"))
      confidence = try CaptureFolderFiles.confidence(
        try CaptureFolderFiles.read(path, what: "confidence of frame \(frame.number)"),
        path: path, expectedWidth: width, expectedHeight: height)
    }
    let color = try video?.frame(at: frame.number)
    return CapturedFrame(
      timestampSeconds: info.timestampSeconds, depth: depth, confidence: confidence, color: color,
      intrinsics: info.intrinsics, pose: info.pose)
  }

  // MARK: - Helpers

  static func path(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }

  /// `000012.png`: Stray's six-digit file name of a frame number.
  static func name(_ number: Int, _ suffix: String) -> String {
    String(format: "%06d.", number) + suffix
  }

  private static func depthSize(folder: String, frame: Int, numPy: Bool) throws -> (
    width: Int, height: Int
  ) {
    let path = path(folder, "depth/" + name(frame, numPy ? "npy" : "png"))
    let bytes = try CaptureFolderFiles.read(path, what: "depth of frame \(frame)")
    if numPy { return try StrayScannerFiles.npySize(bytes, path: path) }
    return try CaptureFolderFiles.depthPNGSize(bytes, path: path)
  }
}

/// Stray Scanner's export folder.
public enum StrayScannerFormat: RecordingFormat {
  public static let name = "Stray Scanner"
  public static let lookedFor =
    "a folder with odometry.csv, camera_matrix.csv and a depth/ folder (Stray Scanner)"
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    isFolder && StrayScannerRecording.looksLike(folder: path)
  }
  public static func open(_ path: String) throws -> any RecordingSource {
    try StrayScannerRecording(folder: path)
  }
}
