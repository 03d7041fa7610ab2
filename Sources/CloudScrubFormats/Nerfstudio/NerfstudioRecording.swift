import CloudScrubCore
import Foundation

/// A nerfstudio-style capture folder, what people have after processing a capture for
/// NeRF or Gaussian splatting: `transforms.json` with a `frames` array, each frame an
/// image (`file_path`), a 4×4 camera-to-world `transform_matrix` in OpenGL camera axes
/// (x right, y up, z back) and, for CloudScrub, a depth PNG (`depth_file_path`, 16-bit
/// millimetres); intrinsics `fl_x, fl_y, cx, cy, w, h` at the top level, per frame, or
/// both (a frame's own keys win).
///
/// Frames keep the array's order and, having no times, are timed at
/// `framesPerSecond`. Frames without `depth_file_path` give no points and are left out
/// (noted). Distortion coefficients are ignored (noted when not zero). JSON is parsed
/// once when opening; images are read in `frame(at:)`.
public struct NerfstudioRecording: RecordingSource {
  /// The nominal rate frames are timed at: frame i at i / 30 s.
  public static let framesPerSecond = 30.0
  /// The file name the layout is recognised by.
  public static let transformsName = "transforms.json"

  /// One frame: its files (relative to the folder) and its camera.
  public struct Frame: Equatable, Sendable {
    public var imagePath: String
    public var depthPath: String
    public var info: FrameInfo
  }

  /// The capture's folder.
  public let folder: String
  /// The frames with depth, in the array's order.
  public let frames: [Frame]
  public let description: RecordingDescription
  public var frameCount: Int { frames.count }

  /// Whether `folder` holds a `transforms.json`. Reads no file.
  public static func looksLike(folder: String) -> Bool {
    var isFolder: ObjCBool = false
    let path = (folder as NSString).appendingPathComponent(transformsName)
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      && !isFolder.boolValue
  }

  /// Opens the capture: parses `transforms.json` and reads the first depth PNG's header
  /// for the depth size.
  ///
  /// - Throws: `CaptureFolderError` when `transforms.json` is missing or not JSON, has
  ///   no `frames`, a frame lacks a key or has a malformed one (naming the key and the
  ///   frame), no frame has a depth file, or the first depth PNG cannot be read.
  public init(folder: String) throws {
    self.folder = folder
    guard CaptureFolderFiles.isFolder(folder) else {
      throw CaptureFolderError(.notAFolder, path: folder)
    }
    let jsonPath = Self.path(folder, Self.transformsName)
    let top = try CaptureFolderFiles.jsonObject(jsonPath, what: Self.transformsName)
    guard let entries = top.dictionary["frames"] as? [Any] else {
      throw top.has("frames")
        ? top.bad("frames", "an array of frame objects") : top.missing("frames")
    }
    var parsed: [Frame] = []
    var withoutDepth = 0
    var distorted = Self.hasDistortion(top)
    for (index, entry) in entries.enumerated() {
      guard let object = entry as? [String: Any] else {
        throw top.bad("frames", "an array of frame objects (element \(index) is not)")
      }
      let fields = JSONFields(dictionary: object, path: jsonPath)
      guard let depth = object["depth_file_path"] as? String else {
        withoutDepth += 1
        continue
      }
      distorted = distorted || Self.hasDistortion(fields)
      parsed.append(try Self.frame(index, fields, top: top, depthPath: depth, folder: folder))
    }
    guard let first = parsed.first else {
      throw CaptureFolderError(
        .noFrames(expected: "frames with a depth_file_path (16-bit PNG, millimetres)"),
        path: jsonPath)
    }
    frames = parsed

    let depthPath = Self.path(folder, first.depthPath)
    let depthBytes = try CaptureFolderFiles.read(depthPath, what: "depth image of frame 0")
    guard let depthSize = CaptureFolderFiles.pngSize(depthBytes) else {
      throw CaptureFolderError(.badImage(message: "no PNG header"), path: depthPath)
    }
    var notes = ["no timestamps: frames timed at \(Int(Self.framesPerSecond)) fps in file order"]
    if withoutDepth > 0 {
      notes.append("\(withoutDepth) of \(entries.count) frames have no depth_file_path: left out")
    }
    if distorted { notes.append("distortion coefficients (k1, k2, p1, p2, …) ignored") }
    let k = first.info.intrinsics
    description = RecordingDescription(
      format: NerfstudioFormat.name, app: nil, framesPerSecond: Self.framesPerSecond,
      depthWidth: depthSize.width, depthHeight: depthSize.height, colorWidth: k.width,
      colorHeight: k.height, notes: notes)
  }

  // MARK: - Frames

  /// Frame `index`'s time, intrinsics and pose, parsed when the capture was opened.
  ///
  /// - Throws: `CaptureFolderError.frameOutOfRange` for an index outside the frames.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    try CaptureFolderFiles.frame(frames, index, folder: folder).info
  }

  /// Reads frame `index`: its depth PNG in metres and its image (JPEG bytes, or a PNG
  /// decoded to RGB).
  ///
  /// - Throws: `CaptureFolderError` naming the file when one is missing, unreadable, of
  ///   the wrong size or not a valid image.
  public func frame(at index: Int) throws -> CapturedFrame {
    let frame = try CaptureFolderFiles.frame(frames, index, folder: folder)
    let depthPath = Self.path(folder, frame.depthPath)
    let depth = try CaptureFolderFiles.millimeterDepth(
      try CaptureFolderFiles.read(depthPath, what: "depth image of frame \(index)"),
      path: depthPath, expectedWidth: description.depthWidth,
      expectedHeight: description.depthHeight)
    let imagePath = Self.path(folder, frame.imagePath)
    let bytes = try CaptureFolderFiles.read(imagePath, what: "image of frame \(index)")
    let color: ColorImage
    if CaptureFolderFiles.pngSize(bytes) != nil {
      do {
        color = .rgb(try PNGCodec.decodeRGB(bytes, path: imagePath))
      } catch {
        throw CaptureFolderError(.badImage(message: "\(error)"), path: imagePath)
      }
    } else {
      color = .jpeg(bytes)
    }
    return CapturedFrame(
      timestampSeconds: frame.info.timestampSeconds, depth: depth, color: color,
      intrinsics: frame.info.intrinsics, pose: frame.info.pose)
  }

  // MARK: - Parsing

  /// One frame with depth: its files, intrinsics (its own keys, else the top level's)
  /// and pose.
  static func frame(
    _ index: Int, _ fields: JSONFields, top: JSONFields, depthPath: String, folder: String
  ) throws -> Frame {
    func number(_ key: String) throws(CaptureFolderError) -> Double {
      try fields.has(key) ? fields.number(key) : top.number(key)
    }
    func size(_ key: String) throws(CaptureFolderError) -> Int {
      try fields.has(key) ? fields.positiveInt(key) : top.positiveInt(key)
    }
    guard let image = fields.dictionary["file_path"] as? String else {
      throw fields.has("file_path")
        ? fields.bad("file_path", "a path (frame \(index))") : fields.missing("file_path")
    }
    let intrinsics = CameraIntrinsics(
      fx: try number("fl_x"), fy: try number("fl_y"), cx: try number("cx"), cy: try number("cy"),
      width: try size("w"), height: try size("h"))
    guard intrinsics.fx > 0, intrinsics.fy > 0 else {
      throw fields.bad("fl_x", "positive focal lengths fl_x and fl_y (frame \(index))")
    }
    guard let rows = fields.dictionary["transform_matrix"] as? [[Any]], rows.count >= 3,
      rows.count <= 4, rows.allSatisfy({ $0.count == 4 })
    else {
      throw fields.has("transform_matrix")
        ? fields.bad("transform_matrix", "4 rows of 4 numbers (frame \(index))")
        : fields.missing("transform_matrix")
    }
    var matrix = rows.flatMap { $0 }.compactMap { ($0 as? NSNumber)?.doubleValue }
    guard matrix.count == rows.count * 4, matrix.allSatisfy(\.isFinite) else {
      throw fields.bad("transform_matrix", "4 rows of 4 numbers (frame \(index))")
    }
    if matrix.count == 12 { matrix += [0, 0, 0, 1] }
    let pose = CameraPose(worldFromCamera: Transform3D(rowMajor: matrix), axes: .openGL)
    return Frame(
      imagePath: resolvedImage(image, folder: folder), depthPath: depthPath,
      info: FrameInfo(
        timestampSeconds: Double(index) / framesPerSecond, intrinsics: intrinsics, pose: pose))
  }

  /// Blender-style datasets name images without an extension (`./train/r_0`): the
  /// path as given when that file exists, else with `.png`.
  static func resolvedImage(_ image: String, folder: String) -> String {
    guard (image as NSString).pathExtension.isEmpty,
      !FileManager.default.fileExists(atPath: path(folder, image)),
      FileManager.default.fileExists(atPath: path(folder, image + ".png"))
    else { return image }
    return image + ".png"
  }

  static func hasDistortion(_ fields: JSONFields) -> Bool {
    ["k1", "k2", "k3", "k4", "p1", "p2"].contains {
      ((fields.dictionary[$0] as? NSNumber)?.doubleValue ?? 0) != 0
    }
  }

  static func path(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }
}

/// A nerfstudio-style `transforms.json` folder.
public enum NerfstudioFormat: RecordingFormat {
  public static let name = "nerfstudio transforms.json"
  public static let lookedFor =
    "a folder with transforms.json (frames with file_path, transform_matrix, depth_file_path)"
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    isFolder && NerfstudioRecording.looksLike(folder: path)
  }
  public static func open(_ path: String) throws -> any RecordingSource {
    try NerfstudioRecording(folder: path)
  }
}
