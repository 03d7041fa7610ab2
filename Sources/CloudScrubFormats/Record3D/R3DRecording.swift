import CloudScrubCore
import Foundation

/// A Record3D `.r3d` file: a ZIP archive holding `metadata` (JSON, the keys of
/// `Record3DMetadata`) and, for each pose number n from 0, `rgbd/<n>.depth`
/// (LZFSE-compressed Float32 metres, `dw × dh`), `rgbd/<n>.conf` (LZFSE-compressed UInt8
/// confidence 0–2, absent for the front TrueDepth camera) and `rgbd/<n>.jpg` (colour);
/// or the folder such an archive was unzipped into (`metadata` beside `rgbd/`).
///
/// Every pose number whose depth entry (and colour entry, when the recording has
/// colour) exists is a frame, keeping that number's pose, time and intrinsics; the
/// missing numbers are named in the notes.
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

  /// The `.r3d` file, or the folder it was unzipped into.
  public let path: String
  /// The `metadata` entry, parsed and checked.
  public let metadata: Record3DMetadata
  /// "Record3D .r3d", its sizes and frame rate, and the importer's notes.
  public let description: RecordingDescription
  /// Frames `0..<frameCount`, one for each entry of `fileNumbers`.
  public var frameCount: Int { numbers.fileNumbers.count }
  /// Each frame's number `n` (of `rgbd/<n>.depth`, and its pose), ascending.
  public var fileNumbers: [Int] { numbers.fileNumbers }
  /// Pose numbers left out because an entry is missing, ascending.
  public var missingFileNumbers: [Int] { (numbers.missingDepth + numbers.missingColor).sorted() }
  /// Whether the recording was opened from an unzipped folder rather than the archive.
  public var isUnzippedFolder: Bool { !(archive is R3DArchive) }
  /// The depth (and confidence) maps' size: `dw × dh`, or inferred for old files.
  public let depthWidth: Int
  public let depthHeight: Int
  /// Whether frames have colour (some `rgbd/<n>.jpg` exists).
  public let hasColor: Bool
  /// Whether frames have confidence (some `rgbd/<n>.conf` exists).
  public let hasConfidence: Bool
  let archive: any R3DEntries
  let numbers: Record3DFrameNumbers

  /// Opens the `.r3d` at `path` (the archive, or the folder it was unzipped into):
  /// lists the entries, reads and checks `metadata`, and counts the frames. Decodes no
  /// frame, except the first frame's depth for an old file without `dw`/`dh`, whose
  /// size it infers.
  ///
  /// - Throws: `R3DError` when the file is no ZIP archive, an entry name is unsafe,
  ///   `metadata` is missing, the recording holds only `metadata` (`metadataOnly`), no
  ///   pose has its depth entry (naming `rgbd/0.depth`), a metadata key is missing or
  ///   malformed (naming the key), or an old file's depth size cannot be inferred.
  public init(path: String) throws {
    self.path = path
    archive = try Self.entries(path)
    metadata = try Self.readMetadata(archive)
    let names = archive.entryNames
    guard names.contains(where: { $0.hasPrefix("rgbd/") }) else {
      throw R3DError(.metadataOnly(poseCount: metadata.worldFromCameraPoses.count), path: path)
    }
    let depth = Record3DFrameNumbers.numbers(in: names, prefix: "rgbd/", suffix: ".depth")
    let color = Record3DFrameNumbers.numbers(in: names, prefix: "rgbd/", suffix: ".jpg")
    hasColor = !color.isEmpty
    hasConfidence = names.contains { $0.hasPrefix("rgbd/") && $0.hasSuffix(".conf") }
    numbers = Record3DFrameNumbers(
      depth: depth, color: hasColor ? color : nil, poseCount: metadata.worldFromCameraPoses.count)
    guard let firstNumber = numbers.fileNumbers.first, let lastNumber = numbers.fileNumbers.last
    else {
      throw R3DError(.missingEntry(Self.depthEntry(frame: 0)), path: path)
    }
    if metadata.frameTimestampsSeconds.count <= lastNumber && metadata.framesPerSecond == nil {
      throw R3DError(.metadata(.missingKey("fps")), path: path)
    }

    var inferredFrom: Int?
    if metadata.hasDepthSize {
      (depthWidth, depthHeight) = (metadata.depthWidth, metadata.depthHeight)
    } else {
      let bytes = try Self.decode(
        archive, entry: Self.depthEntry(frame: firstNumber), expectedBytes: nil, path: path
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
        metadata, numbers: numbers, depthSizeInferredFrom: inferredFrom, hasColor: hasColor,
        hasConfidence: hasConfidence,
        depthSize: (depthWidth, depthHeight)))
  }

  // MARK: - Frames

  /// Reads frame `index` (entries of its number `n`): its depth in metres, its
  /// confidence and colour (JPEG bytes) when the recording has them, with that
  /// number's intrinsics, pose and time.
  ///
  /// - Throws: `R3DError` naming the frame's entry when `index` is out of range, an
  ///   entry is missing, too large or unreadable, a stream is not valid LZFSE, or a map
  ///   does not hold `dw × dh` samples.
  public func frame(at index: Int) throws -> CapturedFrame {
    let info = try frameInfo(at: index)
    let number = numbers.fileNumbers[index]
    let samples = depthWidth * depthHeight
    let depthBytes = try Self.decode(
      archive, entry: Self.depthEntry(frame: number), expectedBytes: samples * 4, path: path)
    var confidence: ConfidenceMap?
    if hasConfidence {
      let values = try Self.decode(
        archive, entry: Self.confidenceEntry(frame: number), expectedBytes: samples, path: path)
      confidence = ConfidenceMap(width: depthWidth, height: depthHeight, values: values)
    }
    var color: ColorImage?
    if hasColor {
      color = .jpeg(
        try archive.read(Self.colorEntry(frame: number), limitBytes: Self.frameEntryLimitBytes))
    }
    return CapturedFrame(
      timestampSeconds: info.timestampSeconds,
      depth: DepthMap(width: depthWidth, height: depthHeight, bytes: depthBytes),
      confidence: confidence, color: color, intrinsics: info.intrinsics, pose: info.pose)
  }

  /// Frame `index`'s time, intrinsics and pose (its number's), from the metadata alone.
  ///
  /// - Throws: `R3DError.frameOutOfRange` for an index outside `0..<frameCount`.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    guard index >= 0, index < frameCount else {
      throw R3DError(.frameOutOfRange(index: index, frameCount: frameCount), path: path)
    }
    let number = numbers.fileNumbers[index]
    return FrameInfo(
      timestampSeconds: metadata.timestampSeconds(frame: number),
      intrinsics: metadata.intrinsics(frame: number),
      pose: CameraPose(worldFromCamera: metadata.worldFromCameraPoses[number], axes: .openGL))
  }

  /// The `metadata` of the `.r3d` (archive or unzipped folder) at `path`, alone: what
  /// `info` shows of a file that holds no frames.
  ///
  /// - Throws: `R3DError` as `init(path:)` does for the archive and its metadata.
  public static func readMetadata(path: String) throws -> Record3DMetadata {
    try readMetadata(entries(path))
  }

  /// Frame `frame`'s depth entry: `rgbd/<frame>.depth`.
  public static func depthEntry(frame: Int) -> String { "rgbd/\(frame).depth" }
  /// Frame `frame`'s confidence entry: `rgbd/<frame>.conf`.
  public static func confidenceEntry(frame: Int) -> String { "rgbd/\(frame).conf" }
  /// Frame `frame`'s colour entry: `rgbd/<frame>.jpg`.
  public static func colorEntry(frame: Int) -> String { "rgbd/\(frame).jpg" }

  // MARK: - Helpers

  /// The archive at `path`, or the folder it was unzipped into; entry names checked.
  static func entries(_ path: String) throws -> any R3DEntries {
    var isFolder: ObjCBool = false
    let folder = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
    let entries: any R3DEntries =
      folder && isFolder.boolValue ? try R3DFolder(folder: path) : try R3DArchive(path: path)
    if let unsafe = entries.entryNames.first(where: R3DArchive.isUnsafe) {
      throw R3DError(.unsafeEntryName(unsafe), path: path)
    }
    return entries
  }

  static func readMetadata(_ entries: any R3DEntries) throws -> Record3DMetadata {
    guard entries.contains("metadata") else {
      throw R3DError(
        entries is R3DArchive ? .missingEntry("metadata") : .missingFile("metadata"),
        path: entries.path)
    }
    let json = try entries.read("metadata", limitBytes: metadataLimitBytes)
    do {
      return try Record3DMetadata(json: json, path: entries.path)
    } catch let error as Record3DError {
      throw R3DError(.metadata(error.reason), path: entries.path)
    }
  }

  /// An LZFSE entry, decompressed; with `expectedBytes`, the stream's declared size is
  /// checked against it before the output is allocated.
  static func decode(_ archive: any R3DEntries, entry: String, expectedBytes: Int?, path: String)
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
}
