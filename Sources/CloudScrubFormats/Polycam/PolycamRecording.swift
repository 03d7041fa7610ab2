import CloudScrubCore
import Foundation

/// A Polycam raw-data export: `keyframes/images/<id>.jpg`, `keyframes/cameras/<id>.json`,
/// `keyframes/depth/<id>.png` (16-bit millimetres), `keyframes/confidence/<id>.png`, and
/// Polycam's optimised `keyframes/corrected_images` and `keyframes/corrected_cameras`.
///
/// One frame per keyframe with a camera JSON and a depth map, ids sorted numerically
/// (they are timestamps). A keyframe with both a corrected camera and a corrected
/// image uses them, as Polycam's own tools do. A camera JSON holds `fx, fy, cx, cy`
/// for its image's `width` × `height` and `t_00 … t_23`, the rows of the 3×4
/// camera-to-world matrix in ARKit (OpenGL) camera axes and ARKit's y-up world.
/// Confidence stored as 0/127/255 is mapped to levels 0/1/2.
public struct PolycamRecording: RecordingSource {
  /// One keyframe: its id and what its camera JSON says.
  public struct Keyframe: Equatable, Sendable {
    /// The file stem shared by its files (a timestamp).
    public var id: String
    public var info: FrameInfo
    /// Whether its camera and image come from `corrected_cameras` and `corrected_images`.
    public var usesCorrected: Bool
    public var hasImage: Bool
    public var hasConfidence: Bool
  }

  /// The export's folder (the one holding `keyframes`).
  public let folder: String
  /// The keyframes in id order.
  public let keyframes: [Keyframe]
  public let description: RecordingDescription
  public var frameCount: Int { keyframes.count }

  /// Whether `folder` holds `keyframes/depth/*.png` and camera JSON files in
  /// `keyframes/cameras` or `keyframes/corrected_cameras`. Lists folders; reads no file.
  public static func looksLike(folder: String) -> Bool {
    let keyframes = (folder as NSString).appendingPathComponent("keyframes")
    let depth = ids(in: keyframes + "/depth", suffix: ".png")
    guard !depth.isEmpty else { return false }
    return !ids(in: keyframes + "/cameras", suffix: ".json").isDisjoint(with: depth)
      || !ids(in: keyframes + "/corrected_cameras", suffix: ".json").isDisjoint(with: depth)
  }

  /// Opens the export: parses every keyframe's camera JSON and reads the first depth
  /// map's header. Decodes one confidence map, to say how its levels are stored.
  ///
  /// - Throws: `CaptureFolderError` when there is no keyframe with a camera and a
  ///   depth map, or a camera JSON lacks a key or has a malformed one (naming both).
  public init(folder: String) throws {
    self.folder = folder
    guard CaptureFolderFiles.isFolder(folder) else {
      throw CaptureFolderError(.notAFolder, path: folder)
    }
    let root = (folder as NSString).appendingPathComponent("keyframes")
    let depthIDs = Self.ids(in: root + "/depth", suffix: ".png")
    let cameraIDs = Self.ids(in: root + "/cameras", suffix: ".json")
    let correctedIDs = Self.ids(in: root + "/corrected_cameras", suffix: ".json")
      .intersection(Self.ids(in: root + "/corrected_images", suffix: ".jpg"))
    let imageIDs = Self.ids(in: root + "/images", suffix: ".jpg")
    let confidenceIDs = Self.ids(in: root + "/confidence", suffix: ".png")
    let ids = cameraIDs.union(correctedIDs).intersection(depthIDs).sorted(by: Self.numericOrder)
    guard let firstID = ids.first else {
      throw CaptureFolderError(
        .noFrames(expected: "keyframes/cameras/<id>.json with keyframes/depth/<id>.png"), path: root
      )
    }
    let depthPath = root + "/depth/\(firstID).png"
    let depthBytes = try CaptureFolderFiles.read(
      depthPath, what: "depth image of keyframe \(firstID)")
    let depthSize = try CaptureFolderFiles.depthPNGSize(depthBytes, path: depthPath)

    var parsed:
      [(
        id: String, corrected: Bool, intrinsics: CameraIntrinsics, pose: Transform3D, stamp: Double
      )] = []
    for id in ids {
      let corrected = correctedIDs.contains(id)
      let path = root + (corrected ? "/corrected_cameras/" : "/cameras/") + "\(id).json"
      let fields = try CaptureFolderFiles.jsonObject(path, what: "camera of keyframe \(id)")
      let intrinsics = CameraIntrinsics(
        fx: try fields.number("fx"), fy: try fields.number("fy"), cx: try fields.number("cx"),
        cy: try fields.number("cy"), width: try fields.positiveInt("width"),
        height: try fields.positiveInt("height"))
      var rows: [Double] = []
      for row in 0..<3 {
        for column in 0..<4 { rows.append(try fields.number("t_\(row)\(column)")) }
      }
      let stamp = try fields.has("timestamp") ? fields.number("timestamp") : Double(id) ?? 0
      parsed.append((id, corrected, intrinsics, Transform3D(rowMajor: rows + [0, 0, 0, 1]), stamp))
    }

    let unit = Self.timestampUnit(parsed.map { $0.stamp })
    keyframes = parsed.map { entry in
      Keyframe(
        id: entry.id,
        info: FrameInfo(
          timestampSeconds: entry.stamp / unit.perSecond, intrinsics: entry.intrinsics,
          pose: CameraPose(worldFromCamera: entry.pose, axes: .openGL)),
        usesCorrected: entry.corrected, hasImage: entry.corrected || imageIDs.contains(entry.id),
        hasConfidence: confidenceIDs.contains(entry.id))
    }

    var notes: [String] = []
    let correctedCount = keyframes.filter(\.usesCorrected).count
    if correctedCount > 0 {
      notes.append(
        "\(correctedCount) of \(ids.count) keyframes use corrected_cameras and corrected_images "
          + "(Polycam's optimised poses)")
    }
    let skipped = cameraIDs.union(correctedIDs).subtracting(depthIDs).count
    if skipped > 0 { notes.append("\(skipped) keyframes without a depth map skipped") }
    if ids.count > 1 { notes.append("keyframe timestamps read as \(unit.name)") }
    if let first = keyframes.first(where: \.hasConfidence) {
      let path = root + "/confidence/\(first.id).png"
      if let bytes = try? FileBytes.read(path),
        CaptureFolderFiles.confidenceIsSpread(bytes, path: path)
      {
        notes.append("confidence stored as 0/127/255: mapped to levels 0/1/2")
      }
    }
    let first = keyframes[0].info
    let times = keyframes.map(\.info.timestampSeconds)
    let span = (times.max() ?? 0) - (times.min() ?? 0)
    description = RecordingDescription(
      format: "Polycam raw data", app: "Polycam",
      framesPerSecond: ids.count > 1 && span > 0 ? Double(ids.count - 1) / span : nil,
      depthWidth: depthSize.width, depthHeight: depthSize.height,
      colorWidth: keyframes[0].hasImage ? first.intrinsics.width : nil,
      colorHeight: keyframes[0].hasImage ? first.intrinsics.height : nil, notes: notes)
  }

  // MARK: - Frames

  /// Keyframe `index`'s time, intrinsics and pose, parsed when the recording was opened.
  ///
  /// - Throws: `CaptureFolderError.frameOutOfRange` for an index outside the keyframes.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    try CaptureFolderFiles.frame(keyframes, index, folder: folder).info
  }

  /// Reads keyframe `index`: depth in metres, confidence as levels 0–2 when present,
  /// and the (corrected) image's JPEG bytes.
  ///
  /// - Throws: `CaptureFolderError` naming the file when one is missing, unreadable, of
  ///   the wrong size or not a valid PNG.
  public func frame(at index: Int) throws -> CapturedFrame {
    let info = try frameInfo(at: index)
    let keyframe = keyframes[index]
    let root = (folder as NSString).appendingPathComponent("keyframes")
    let (width, height) = (description.depthWidth, description.depthHeight)
    let depthPath = root + "/depth/\(keyframe.id).png"
    let depth = try CaptureFolderFiles.millimeterDepth(
      try CaptureFolderFiles.read(depthPath, what: "depth image of keyframe \(keyframe.id)"),
      path: depthPath, expectedWidth: width, expectedHeight: height)
    var confidence: ConfidenceMap?
    if keyframe.hasConfidence {
      let path = root + "/confidence/\(keyframe.id).png"
      confidence = try CaptureFolderFiles.confidence(
        try CaptureFolderFiles.read(path, what: "confidence image of keyframe \(keyframe.id)"),
        path: path, expectedWidth: width, expectedHeight: height)
    }
    var color: ColorImage?
    if keyframe.hasImage {
      let path =
        root + (keyframe.usesCorrected ? "/corrected_images/" : "/images/") + "\(keyframe.id).jpg"
      color = .jpeg(try CaptureFolderFiles.read(path, what: "image of keyframe \(keyframe.id)"))
    }
    return CapturedFrame(
      timestampSeconds: info.timestampSeconds, depth: depth, confidence: confidence, color: color,
      intrinsics: info.intrinsics, pose: info.pose)
  }

  // MARK: - Helpers

  /// The numeric stems of the files in `folder` ending in `suffix`.
  static func ids(in folder: String, suffix: String) -> Set<String> {
    Set(
      CaptureFolderFiles.names(in: folder).compactMap { name in
        guard name.hasSuffix(suffix) else { return nil }
        let stem = name.dropLast(suffix.count)
        return !stem.isEmpty && stem.allSatisfy({ $0.isASCII && $0.isNumber }) ? String(stem) : nil
      })
  }

  /// Numeric order of digit strings of any length ("9" before "10").
  static func numericOrder(_ a: String, _ b: String) -> Bool {
    let a = a.drop { $0 == "0" }
    let b = b.drop { $0 == "0" }
    return a.count != b.count ? a.count < b.count : a < b
  }

  /// The unit of the keyframes' `timestamp`, which Polycam does not document: the
  /// largest of nanoseconds, microseconds, milliseconds and seconds that spaces
  /// keyframes at least 10 ms apart (keyframes come a few a second).
  static func timestampUnit(_ stamps: [Double]) -> (name: String, perSecond: Double) {
    let sorted = stamps.sorted()
    let steps = zip(sorted, sorted.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
    guard !steps.isEmpty else { return ("microseconds", 1e6) }
    let median = steps[steps.count / 2]
    let units: [(String, Double)] = [
      ("nanoseconds", 1e9), ("microseconds", 1e6), ("milliseconds", 1e3), ("seconds", 1),
    ]
    return units.first { median / $0.1 >= 0.01 } ?? ("seconds", 1)
  }
}

/// Polycam's raw-data export folder.
public enum PolycamFormat: RecordingFormat {
  public static let name = "Polycam"
  public static let lookedFor =
    "a folder with keyframes/cameras/<id>.json and keyframes/depth/<id>.png (Polycam raw data)"
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    isFolder && PolycamRecording.looksLike(folder: path)
  }
  public static func open(_ path: String) throws -> any RecordingSource {
    try PolycamRecording(folder: path)
  }
}
