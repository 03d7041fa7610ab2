import CloudScrubCore
import Foundation

/// A Record3D `.r3d` file: a ZIP archive holding `metadata` (JSON, the keys of
/// `Record3DMetadata`) and, for each frame i from 0, `rgbd/<i>.depth` (LZFSE-compressed
/// Float32 metres, `dw × dh`), `rgbd/<i>.conf` (LZFSE-compressed UInt8 confidence 0–2,
/// absent for the front TrueDepth camera) and `rgbd/<i>.jpg` (colour).
///
/// Frames come out with depth in metres, confidence when the archive has it, the JPEG
/// bytes undecoded, intrinsics for the colour image's size and the camera-to-world pose
/// in OpenGL camera axes, `poses[0]` kept as it is. Entries are read from the archive
/// into memory, never extracted. `frame(at:)` may run on several threads at once.
public struct R3DRecording: RecordingSource {
  /// The most bytes the `metadata` entry may declare.
  public static let metadataLimitBytes = 16 << 20
  /// The most bytes a depth, confidence or colour entry may declare.
  public static let frameEntryLimitBytes = 64 << 20

  /// The `.r3d` file.
  public let path: String
  /// The `metadata` entry, parsed and checked.
  public let metadata: Record3DMetadata
  /// "Record3D .r3d", its sizes and frame rate, and the importer's notes.
  public let description: RecordingDescription
  /// Frames `0..<frameCount`: up to the highest-numbered depth entry, and no more
  /// than there are poses.
  public let frameCount: Int
  /// The depth (and confidence) maps' size: `dw × dh`, or inferred for old files.
  public let depthWidth: Int
  public let depthHeight: Int
  /// Whether frames have colour (`rgbd/0.jpg` exists).
  public let hasColor: Bool
  /// Whether frames have confidence (`rgbd/0.conf` exists).
  public let hasConfidence: Bool
  let archive: R3DArchive

  /// Opens the `.r3d` at `path`: lists the archive, reads and checks `metadata`, and
  /// counts the frames. Decodes no frame, except frame 0's depth for an old file
  /// without `dw`/`dh`, whose size it infers.
  ///
  /// - Throws: `R3DError` when the file is no ZIP archive, an entry name is unsafe,
  ///   `metadata` or `rgbd/0.depth` is missing, a metadata key is missing or malformed
  ///   (naming the key), or an old file's depth size cannot be inferred.
  public init(path: String) throws {
    self.path = path
    archive = try R3DArchive(path: path)
    if let unsafe = archive.entryNames.first(where: R3DArchive.isUnsafe) {
      throw R3DError(.unsafeEntryName(unsafe), path: path)
    }
    let json = try archive.read("metadata", limitBytes: Self.metadataLimitBytes)
    do {
      metadata = try Record3DMetadata(json: json, path: path)
    } catch let error as Record3DError {
      throw R3DError(.metadata(error.reason), path: path)
    }
    guard archive.contains(Self.depthEntry(frame: 0)) else {
      throw R3DError(.missingEntry(Self.depthEntry(frame: 0)), path: path)
    }
    let depthEntries = Self.highestDepthFrame(in: archive.entryNames) + 1
    frameCount = min(depthEntries, metadata.worldFromCameraPoses.count)
    if metadata.frameTimestampsSeconds.count < frameCount && metadata.framesPerSecond == nil {
      throw R3DError(.metadata(.missingKey("fps")), path: path)
    }
    hasColor = archive.contains(Self.colorEntry(frame: 0))
    hasConfidence = archive.contains(Self.confidenceEntry(frame: 0))

    var inferredFrom: Int?
    if metadata.hasDepthSize {
      (depthWidth, depthHeight) = (metadata.depthWidth, metadata.depthHeight)
    } else {
      let bytes = try Self.decode(
        archive, entry: Self.depthEntry(frame: 0), expectedBytes: nil, path: path
      ).count
      guard
        let size = Self.inferDepthSize(
          byteCount: bytes, colorWidth: metadata.colorWidth, colorHeight: metadata.colorHeight)
      else { throw R3DError(.unknownDepthSize(bytes: bytes), path: path) }
      (depthWidth, depthHeight) = size
      inferredFrom = bytes
    }

    description = RecordingDescription(
      format: R3DFormat.name, app: "Record3D", framesPerSecond: metadata.framesPerSecond,
      depthWidth: depthWidth, depthHeight: depthHeight, colorWidth: metadata.colorWidth,
      colorHeight: metadata.colorHeight,
      notes: Self.notes(
        metadata, depthEntries: depthEntries, frameCount: frameCount,
        depthSizeInferredFrom: inferredFrom, hasColor: hasColor, hasConfidence: hasConfidence,
        depthSize: (depthWidth, depthHeight)))
  }

  // MARK: - Frames

  /// Reads frame `index`: its depth in metres, its confidence and colour (JPEG bytes)
  /// when the archive has them, with that frame's intrinsics, pose and time.
  ///
  /// - Throws: `R3DError` naming the frame's entry when `index` is out of range, an
  ///   entry is missing, too large or unreadable, a stream is not valid LZFSE, or a map
  ///   does not hold `dw × dh` samples.
  public func frame(at index: Int) throws -> CapturedFrame {
    let info = try frameInfo(at: index)
    let samples = depthWidth * depthHeight
    let depthBytes = try Self.decode(
      archive, entry: Self.depthEntry(frame: index), expectedBytes: samples * 4, path: path)
    var confidence: ConfidenceMap?
    if hasConfidence {
      let values = try Self.decode(
        archive, entry: Self.confidenceEntry(frame: index), expectedBytes: samples, path: path)
      confidence = ConfidenceMap(width: depthWidth, height: depthHeight, values: values)
    }
    var color: ColorImage?
    if hasColor {
      color = .jpeg(
        try archive.read(Self.colorEntry(frame: index), limitBytes: Self.frameEntryLimitBytes))
    }
    return CapturedFrame(
      timestampSeconds: info.timestampSeconds,
      depth: DepthMap(width: depthWidth, height: depthHeight, bytes: depthBytes),
      confidence: confidence, color: color, intrinsics: info.intrinsics, pose: info.pose)
  }

  /// Frame `index`'s time, intrinsics and pose, from the metadata alone.
  ///
  /// - Throws: `R3DError.frameOutOfRange` for an index outside `0..<frameCount`.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    guard index >= 0, index < frameCount else {
      throw R3DError(.frameOutOfRange(index: index, frameCount: frameCount), path: path)
    }
    return FrameInfo(
      timestampSeconds: timestampSeconds(frame: index), intrinsics: intrinsics(frame: index),
      pose: CameraPose(worldFromCamera: metadata.worldFromCameraPoses[index], axes: .openGL))
  }

  /// Frame `index`'s time (see `Record3DMetadata.timestampSeconds(frame:)`).
  public func timestampSeconds(frame index: Int) -> Double {
    metadata.timestampSeconds(frame: index)
  }

  /// Frame `index`'s intrinsics (see `Record3DMetadata.intrinsics(frame:)`).
  public func intrinsics(frame index: Int) -> CameraIntrinsics { metadata.intrinsics(frame: index) }

  /// Frame `frame`'s depth entry: `rgbd/<frame>.depth`.
  public static func depthEntry(frame: Int) -> String { "rgbd/\(frame).depth" }
  /// Frame `frame`'s confidence entry: `rgbd/<frame>.conf`.
  public static func confidenceEntry(frame: Int) -> String { "rgbd/\(frame).conf" }
  /// Frame `frame`'s colour entry: `rgbd/<frame>.jpg`.
  public static func colorEntry(frame: Int) -> String { "rgbd/\(frame).jpg" }

  // MARK: - Helpers

  /// An LZFSE entry, decompressed; with `expectedBytes`, the stream's declared size is
  /// checked against it before the output is allocated.
  static func decode(_ archive: R3DArchive, entry: String, expectedBytes: Int?, path: String)
    throws -> [UInt8]
  {
    let compressed = try archive.read(entry, limitBytes: frameEntryLimitBytes)
    do {
      return try LZFSE.decode(compressed, expectedSize: expectedBytes)
    } catch let error as LZFSEError {
      if case .expectedSizeMismatch(let expected, let declared) = error.reason {
        throw R3DError(
          .mapSizeMismatch(entry: entry, expectedBytes: expected, actualBytes: declared),
          path: path)
      }
      throw R3DError(.lzfse(entry: entry, error), path: path)
    }
  }

  /// The highest `n` of the entries named `rgbd/<n>.depth` (canonical numbers only:
  /// `rgbd/05.depth` is not frame 5's), or -1 without one.
  static func highestDepthFrame(in names: [String]) -> Int {
    var highest = -1
    for name in names where name.hasPrefix("rgbd/") && name.hasSuffix(".depth") {
      let digits = name.dropFirst(5).dropLast(6)
      guard let number = Int(digits), number >= 0, "\(number)" == digits else { continue }
      highest = max(highest, number)
    }
    return highest
  }
}
