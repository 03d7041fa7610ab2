import CloudScrubCore
import Foundation

/// A 3D Scanner App "All Data" export: a folder of `frame_NNNNN.json` (pose,
/// intrinsics, time), `depth_NNNNN.png` (16-bit millimetres), `conf_NNNNN.png`
/// (levels 0–2) and `frame_NNNNN.jpg`.
///
/// One frame per JSON file with a depth map beside it, in time order. In low-res mode
/// the app writes depth more often than images: a frame without its own JPEG takes the
/// image nearest in time (`TimePairing`). Intrinsics are row-major and belong to the
/// JPEG's size; `cameraPoseARFrame` is row-major camera-to-world in ARKit (OpenGL)
/// camera axes, in ARKit's y-up world. The JSON files are parsed once when opening; no
/// image is decoded until `frame(at:)`.
public struct ScannerAppRecording: RecordingSource {
  /// One depth frame: its file number and what its JSON file says.
  public struct Frame: Equatable, Sendable {
    /// The number in its file names ("00012").
    public var number: String
    public var info: FrameInfo
    /// The number of the image this frame takes its colour from (its own when it has
    /// one); `nil` when the export has no image.
    public var colorNumber: String?
    /// Whether `conf_<number>.png` exists.
    public var hasConfidence: Bool
  }

  /// The export's folder.
  public let folder: String
  /// The frames in time order.
  public let frames: [Frame]
  public let description: RecordingDescription
  public var frameCount: Int { frames.count }

  /// Whether `folder` holds at least one `frame_NNNNN.json` with a `depth_NNNNN.png` of
  /// the same number. Lists the folder; reads no file.
  public static func looksLike(folder: String) -> Bool {
    let names = Set(CaptureFolderFiles.names(in: folder))
    return names.contains { name in
      guard let number = number(in: name, prefix: "frame_", suffix: ".json") else { return false }
      return names.contains("depth_\(number).png")
    }
  }

  /// Opens the export: parses every frame's JSON and reads the first depth map's and
  /// image's headers for their sizes.
  ///
  /// - Throws: `CaptureFolderError` when the folder has no frame, a JSON file lacks a
  ///   key or has a malformed one (naming the key and the file), or the first depth
  ///   PNG or JPEG cannot be read.
  public init(folder: String) throws {
    self.folder = folder
    guard CaptureFolderFiles.isFolder(folder) else {
      throw CaptureFolderError(.notAFolder, path: folder)
    }
    let names = CaptureFolderFiles.names(in: folder)
    let nameSet = Set(names)
    let jsonNumbers = names.compactMap { Self.number(in: $0, prefix: "frame_", suffix: ".json") }
    let numbers = jsonNumbers.filter { nameSet.contains("depth_\($0).png") }
    guard let firstNumber = numbers.first else {
      throw CaptureFolderError(
        .noFrames(expected: "frame_NNNNN.json files with a depth_NNNNN.png beside each"),
        path: folder)
    }
    let imageNumbers = numbers.filter { nameSet.contains("frame_\($0).jpg") }

    let depthPath = Self.path(folder, "depth_\(firstNumber).png")
    let depthBytes = try CaptureFolderFiles.read(
      depthPath, what: "depth image of frame \(firstNumber)")
    let depthSize = try CaptureFolderFiles.depthPNGSize(depthBytes, path: depthPath)
    var notes: [String] = []
    var colorSize: (width: Int, height: Int)?
    if let number = imageNumbers.first {
      let imagePath = Self.path(folder, "frame_\(number).jpg")
      let bytes = try CaptureFolderFiles.read(imagePath, what: "image of frame \(number)")
      do {
        colorSize = try TurboJPEGDecoder().imageSize(of: bytes)
      } catch {
        throw CaptureFolderError(.badImage(message: "\(error)"), path: imagePath)
      }
    }

    var parsed: [(number: String, time: Double, intrinsics: [Double], pose: [Double])] = []
    for number in numbers {
      let jsonPath = Self.path(folder, "frame_\(number).json")
      let fields = try CaptureFolderFiles.jsonObject(jsonPath, what: "JSON of frame \(number)")
      let intrinsics = try fields.numbers("intrinsics", count: 9)
      guard intrinsics[0] > 0, intrinsics[4] > 0 else {
        throw fields.bad("intrinsics", "9 numbers, row-major, with positive fx and fy")
      }
      parsed.append(
        (
          number, try fields.number("time"), intrinsics,
          try fields.numbers("cameraPoseARFrame", count: 16)
        ))
    }
    parsed.sort { ($0.time, $0.number) < ($1.time, $1.number) }

    let cx = parsed[0].intrinsics[2]
    guard
      let imageSize = colorSize
        ?? Self.guessedColorSize(
          cx: cx, depthWidth: depthSize.width, depthHeight: depthSize.height)
    else {
      throw CaptureFolderError(
        .badValue(
          key: "intrinsics",
          expected: "a cx of at most \(ImageSizeLimits.maxColorSide / 2) (is \(cx))"),
        path: Self.path(folder, "frame_\(parsed[0].number).json"))
    }
    let hasImage = Set(imageNumbers)
    let imageFrames = parsed.filter { hasImage.contains($0.number) }
    let pairing = TimePairing.nearest(
      to: parsed.map { $0.time }, in: imageFrames.map { $0.time }, toleranceSeconds: .infinity)
    frames = zip(parsed, pairing).map { entry, imageIndex in
      let k = entry.intrinsics
      let intrinsics = CameraIntrinsics(
        fx: k[0], fy: k[4], cx: k[2], cy: k[5], width: imageSize.width, height: imageSize.height)
      let pose = CameraPose(worldFromCamera: Transform3D(rowMajor: entry.pose), axes: .openGL)
      return Frame(
        number: entry.number,
        info: FrameInfo(timestampSeconds: entry.time, intrinsics: intrinsics, pose: pose),
        colorNumber: hasImage.contains(entry.number)
          ? entry.number : imageIndex.map { imageFrames[$0].number },
        hasConfidence: nameSet.contains("conf_\(entry.number).png"))
    }

    let skipped = jsonNumbers.count - numbers.count
    if skipped > 0 { notes.append("\(skipped) frame JSON files without a depth map skipped") }
    if imageNumbers.isEmpty {
      notes.append(
        "no frame_NNNNN.jpg images: points are uncoloured; intrinsics taken as for a "
          + "\(imageSize.width)×\(imageSize.height) image")
    } else if imageNumbers.count < numbers.count {
      notes.append(
        "\(numbers.count - imageNumbers.count) of \(numbers.count) depth frames have no image: "
          + "each takes the colour of the image nearest in time")
    }
    let withoutConfidence = frames.filter { !$0.hasConfidence }.count
    if withoutConfidence > 0 {
      notes.append("\(withoutConfidence) of \(numbers.count) frames have no conf_NNNNN.png")
    }
    let span = parsed[parsed.count - 1].time - parsed[0].time
    description = RecordingDescription(
      format: "3D Scanner App export", app: "3D Scanner App",
      framesPerSecond: parsed.count > 1 && span > 0 ? Double(parsed.count - 1) / span : nil,
      depthWidth: depthSize.width, depthHeight: depthSize.height,
      colorWidth: colorSize?.width, colorHeight: colorSize?.height, notes: notes)
  }

  // MARK: - Frames

  /// Frame `index`'s time, intrinsics and pose, parsed when the recording was opened.
  ///
  /// - Throws: `CaptureFolderError.frameOutOfRange` for an index outside the frames.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    try CaptureFolderFiles.frame(frames, index, folder: folder).info
  }

  /// Reads frame `index`: its depth in metres, its confidence when present, and the
  /// JPEG bytes of its image (or of the image nearest in time).
  ///
  /// - Throws: `CaptureFolderError` naming the file when one is missing, unreadable, of
  ///   the wrong size or not a valid PNG.
  public func frame(at index: Int) throws -> CapturedFrame {
    let info = try frameInfo(at: index)
    let frame = frames[index]
    let width = description.depthWidth
    let height = description.depthHeight
    let depthPath = Self.path(folder, "depth_\(frame.number).png")
    let depth = try CaptureFolderFiles.millimeterDepth(
      try CaptureFolderFiles.read(depthPath, what: "depth image of frame \(frame.number)"),
      path: depthPath, expectedWidth: width, expectedHeight: height)
    var confidence: ConfidenceMap?
    if frame.hasConfidence {
      let path = Self.path(folder, "conf_\(frame.number).png")
      confidence = try CaptureFolderFiles.confidence(
        try CaptureFolderFiles.read(path, what: "confidence image of frame \(frame.number)"),
        path: path, expectedWidth: width, expectedHeight: height)
    }
    var color: ColorImage?
    if let number = frame.colorNumber {
      color = .jpeg(
        try CaptureFolderFiles.read(
          Self.path(folder, "frame_\(number).jpg"), what: "image of frame \(number)"))
    }
    return CapturedFrame(
      timestampSeconds: info.timestampSeconds, depth: depth, confidence: confidence, color: color,
      intrinsics: info.intrinsics, pose: info.pose)
  }

  // MARK: - Helpers

  static func path(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }

  /// The digits between `prefix` and `suffix` in `name`, or `nil` when it is not so.
  static func number(in name: String, prefix: String, suffix: String) -> String? {
    guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count
    else { return nil }
    let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
    return digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? String(digits) : nil
  }

  /// The colour size intrinsics belong to when there is no image to measure: the depth
  /// size scaled by the half-step factor that puts the principal point nearest the
  /// centre (7.5 for ARKit's 1920×1440 over 256×192).
  ///
  /// nil when no plausible size follows (a depth size outside `ImageSizeLimits`, or a
  /// `cx` that is not finite or scales the image past `ImageSizeLimits.maxColorSide`).
  static func guessedColorSize(cx: Double, depthWidth: Int, depthHeight: Int) -> (
    width: Int, height: Int
  )? {
    guard ImageSizeLimits.depthProblem(width: depthWidth, height: depthHeight) == nil,
      cx.isFinite
    else { return nil }
    let factor = max(0.5, (2 * cx / Double(depthWidth) * 2).rounded() / 2)
    let width = (Double(depthWidth) * factor).rounded()
    let height = (Double(depthHeight) * factor).rounded()
    let limit = Double(ImageSizeLimits.maxColorSide)
    guard width <= limit, height <= limit else { return nil }
    return (Int(width), Int(height))
  }
}

/// 3D Scanner App's "All Data" export folder.
public enum ScannerAppFormat: RecordingFormat {
  public static let name = "3D Scanner App"
  public static let lookedFor =
    "a folder with frame_NNNNN.json and depth_NNNNN.png (3D Scanner App All Data)"
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    isFolder && ScannerAppRecording.looksLike(folder: path)
  }
  public static func open(_ path: String) throws -> any RecordingSource {
    try ScannerAppRecording(folder: path)
  }
}
