import CloudScrubCore
import Foundation

/// A Record3D "EXR + JPG" export: a folder with `metadata.json`, `depth/<n>.exr` (one
/// HALF channel `R`, metres) and `rgb/<n>.jpg`, files numbered after the poses from 0.
///
/// Real exports lack some numbers: every number with a pose and its files is a frame,
/// and keeps its number's pose, time and intrinsics (`fileNumbers`); the missing
/// numbers are named in the notes.
///
/// Frames come out with depth in metres, the JPEG bytes undecoded (`.jpeg`, for a
/// `ColorDecoder` to decode at the size it needs), intrinsics for the colour image's
/// size, and the camera-to-world pose in OpenGL camera axes. The export has no
/// confidence. A value type holding no open files: `frame(at:)` may run on several
/// threads at once.
public struct Record3DEXRRecording: RecordingSource {
  /// The export's folder.
  public let folder: String
  /// `metadata.json`, parsed and checked.
  public let metadata: Record3DMetadata
  /// "Record3D EXR+JPG export", its sizes and frame rate, and the importer's notes.
  public let description: RecordingDescription
  /// Frames `0..<frameCount`, one for each entry of `fileNumbers`.
  public var frameCount: Int { numbers.fileNumbers.count }
  /// Each frame's file number `n` (of `depth/<n>.exr`, and its pose), ascending: the
  /// numbers below the pose count whose depth file, and colour file when the export
  /// has colour, exist.
  public var fileNumbers: [Int] { numbers.fileNumbers }
  /// Numbers below the pose count left out because a file is missing, ascending.
  public var missingFileNumbers: [Int] { (numbers.missingDepth + numbers.missingColor).sorted() }
  /// Whether the export has colour images (`rgb/` holds a `<n>.jpg`).
  public let hasColor: Bool
  let numbers: Record3DFrameNumbers
  /// Reads the depth images (channel `R`).
  public var depthReader = EXRDepthReader(channelName: "R")

  /// Whether `folder` looks like a Record3D EXR export: it holds `metadata.json` and a
  /// `depth` folder with `.exr` files. Reads no file.
  public static func looksLike(folder: String) -> Bool {
    let files = FileManager.default
    var isFolder: ObjCBool = false
    let metadataPath = (folder as NSString).appendingPathComponent("metadata.json")
    guard files.fileExists(atPath: metadataPath, isDirectory: &isFolder), !isFolder.boolValue
    else { return false }
    let depthFolder = (folder as NSString).appendingPathComponent("depth")
    let names = (try? files.contentsOfDirectory(atPath: depthFolder)) ?? []
    return names.contains { $0.hasSuffix(".exr") }
  }

  /// Opens the export in `folder`: reads and checks `metadata.json` and counts the
  /// frames. Decodes no image.
  ///
  /// - Throws: `Record3DError` when the folder or `metadata.json` is missing, a required
  ///   metadata key is missing or malformed (naming the key), or no pose has its files
  ///   (naming `depth/0.exr`).
  public init(folder: String) throws {
    self.folder = folder
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
      isFolder.boolValue
    else { throw Record3DError(.notAFolder, path: folder) }

    let metadataPath = (folder as NSString).appendingPathComponent("metadata.json")
    guard FileManager.default.fileExists(atPath: metadataPath) else {
      throw Record3DError(.missingMetadata, path: metadataPath)
    }
    let json: [UInt8]
    do {
      json = try FileBytes.read(metadataPath)
    } catch let error as FileError {
      throw Record3DError(.unreadableMetadata(message: FileBytes.reason(error)), path: metadataPath)
    }
    metadata = try Record3DMetadata(json: json, path: metadataPath)

    let depth = Self.fileNumbers(in: folder, subfolder: "depth", suffix: ".exr")
    let color = Self.fileNumbers(in: folder, subfolder: "rgb", suffix: ".jpg")
    hasColor = !color.isEmpty
    numbers = Record3DFrameNumbers(
      depth: depth, color: hasColor ? color : nil, poseCount: metadata.worldFromCameraPoses.count)
    guard let lastNumber = numbers.fileNumbers.last else {
      // Depth for some pose but colour for none of those: name the first colour file.
      if numbers.missingDepth.isEmpty, let first = numbers.missingColor.first {
        throw Record3DError(
          .missingColorFile(frame: first), path: Self.colorPath(folder: folder, frame: first))
      }
      throw Record3DError(
        .missingDepthFile(frame: 0), path: Self.depthPath(folder: folder, frame: 0))
    }
    try Self.checkTimes(metadata, frameCount: lastNumber + 1, path: metadataPath)

    description = RecordingDescription(
      format: "Record3D EXR+JPG export", app: "Record3D",
      framesPerSecond: metadata.framesPerSecond, depthWidth: metadata.depthWidth,
      depthHeight: metadata.depthHeight, colorWidth: metadata.colorWidth,
      colorHeight: metadata.colorHeight,
      notes: Self.notes(metadata, numbers: numbers, hasColor: hasColor))
  }

  // MARK: - Frames

  /// Reads frame `index`: `depth/<n>.exr` in metres and `rgb/<n>.jpg` as JPEG bytes,
  /// with the intrinsics, pose and time of its file number `n`.
  ///
  /// - Throws: `Record3DError` naming the frame and the file when `index` is out of
  ///   range, or a file is missing, unreadable or not a valid image.
  public func frame(at index: Int) throws -> CapturedFrame {
    guard index >= 0, index < frameCount else {
      throw Record3DError(.frameOutOfRange(index: index, frameCount: frameCount), path: folder)
    }
    let number = numbers.fileNumbers[index]
    let depthPath = Self.depthPath(folder: folder, frame: number)
    let depthBytes = try Self.read(
      depthPath, frame: index, missing: .missingDepthFile(frame: index))
    let depth: DepthMap
    do {
      depth = try depthBytes.withUnsafeBytes {
        try depthReader.readDepth(bytes: $0, path: depthPath)
      }
    } catch let error as EXRError {
      throw Record3DError(.depth(frame: index, error.reason), path: depthPath)
    }
    var color: ColorImage?
    if hasColor {
      let colorPath = Self.colorPath(folder: folder, frame: number)
      color = .jpeg(
        try Self.read(colorPath, frame: index, missing: .missingColorFile(frame: index)))
    }
    let info = try frameInfo(at: index)
    return CapturedFrame(
      timestampSeconds: info.timestampSeconds, depth: depth, color: color,
      intrinsics: info.intrinsics, pose: info.pose)
  }

  /// Where frame `frame`'s depth image is in an export folder: `depth/<frame>.exr`.
  public static func depthPath(folder: String, frame: Int) -> String {
    (folder as NSString).appendingPathComponent("depth/\(frame).exr")
  }

  /// Where frame `frame`'s colour image is in an export folder: `rgb/<frame>.jpg`.
  public static func colorPath(folder: String, frame: Int) -> String {
    (folder as NSString).appendingPathComponent("rgb/\(frame).jpg")
  }

  // MARK: - Helpers

  /// A whole file's bytes, with errors naming the frame.
  private static func read(_ path: String, frame: Int, missing: Record3DError.Reason) throws
    -> [UInt8]
  {
    guard FileManager.default.fileExists(atPath: path) else {
      throw Record3DError(missing, path: path)
    }
    do {
      return try FileBytes.read(path)
    } catch let error as FileError {
      throw Record3DError(
        .unreadableFile(frame: frame, message: FileBytes.reason(error)), path: path)
    }
  }

  /// The numbers `n` of the files `<subfolder>/<n><suffix>` in an export folder.
  static func fileNumbers(in folder: String, subfolder: String, suffix: String) -> Set<Int> {
    let path = (folder as NSString).appendingPathComponent(subfolder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return Record3DFrameNumbers.numbers(in: names, suffix: suffix)
  }

  /// Timestamps for the first `frameCount` file numbers, or `fps` for the rest.
  private static func checkTimes(_ metadata: Record3DMetadata, frameCount: Int, path: String)
    throws
  {
    if metadata.frameTimestampsSeconds.count < frameCount && metadata.framesPerSecond == nil {
      throw Record3DError(.missingKey("fps"), path: path)
    }
  }
}
