import CloudScrubCore
import Foundation

/// What a path holds, judged by its content (a folder's layout, a file's first bytes),
/// never by its name.
public enum InputKind: Equatable, Sendable {
  case ply
  /// A point cloud in another format (`CloudFileFormat.name`: PCD, LAS, XYZ text).
  case cloud(format: String)
  /// A recording in the format with this name (`RecordingFormat.name`).
  case recording(format: String)
}

/// A path the user gave, resolved to what it holds (see `InputDetector.resolve`).
public struct ResolvedInput: Equatable, Sendable {
  /// What to open: the path itself, or the recording found one level down.
  public var path: String
  public var kind: InputKind
  /// The folder given, when the recording was found one level down inside it.
  public var foundInside: String?
}

/// One recording format CloudScrub opens: how to recognise it and how to open it.
/// Each importer provides one; `InputDetector.formats` lists them all.
public protocol RecordingFormat: SendableMetatype {
  /// A short name, as `info` shows it ("Record3D .r3d").
  static var name: String { get }
  /// What the detector looks for, for the error that lists everything it tried.
  static var lookedFor: String { get }
  /// Whether `path` holds this format. `prefix` is the file's first 16 bytes (empty
  /// for a folder). Must not throw: a path that cannot be judged is not this format.
  static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool
  /// Opens the recording.
  ///
  /// - Throws: an error naming what is wrong and where, with the path.
  static func open(_ path: String) throws -> any RecordingSource
}

/// Finds out what a path holds and opens recordings of every supported format.
public enum InputDetector {
  /// Every recording format, in the order they are tried.
  public static let formats: [any RecordingFormat.Type] = [
    CloudScrubRecordingFormat.self,
    Record3DEXRFormat.self,
    ScannerAppFormat.self,
    StrayScannerFormat.self,
    PolycamFormat.self,
    ARKitScenesFormat.self,
    NerfstudioFormat.self,
    R3DFormat.self,
  ]

  /// What the path holds.
  ///
  /// - Throws: `FileError` when it cannot be read, or is nothing CloudScrub opens (the
  ///   message lists what was looked for).
  public static func kind(of path: String) throws -> InputKind {
    let isFolder = ObjCBool(try regularFileOrFolder(path))
    let prefix = isFolder.boolValue ? [] : try firstBytes(of: path, count: 16)
    if let format = formats.first(where: {
      $0.recognizes(path: path, isFolder: isFolder.boolValue, prefix: prefix)
    }) {
      return .recording(format: format.name)
    }
    if !isFolder.boolValue {
      let longer = try firstBytes(of: path, count: CloudFileFormats.prefixBytes)
      if let name = CloudFileFormats.formatName(of: longer) {
        return name == PLYFileFormat.name ? .ply : .cloud(format: name)
      }
    }
    let tried =
      CloudFileFormats.all.map { $0.lookedFor } + formats.map { "\($0.name): \($0.lookedFor)" }
    throw FileError(
      .unsupportedFormat(
        (isFolder.boolValue
          ? "a folder that is no recording CloudScrub knows" : "no file CloudScrub knows")
          + "; looked for " + tried.joined(separator: "; ")),
      path: path)
  }

  /// What `path` holds, looking one level down when it is a folder that is no
  /// recording itself: the folder above an export (an ARKitScenes scene `<id>/` holding
  /// `<id>_frames/`, a 3D Scanner App folder holding `All_Data/`) opens the one
  /// recording inside it.
  ///
  /// - Throws: `FileError` as `kind(of:)` does; for a folder holding several recordings
  ///   one level down, an `unsupportedFormat` error listing them (name and format).
  public static func resolve(_ path: String) throws -> ResolvedInput {
    do {
      return ResolvedInput(path: path, kind: try kind(of: path), foundInside: nil)
    } catch let error as FileError {
      var isFolder: ObjCBool = false
      guard case .unsupportedFormat = error.reason,
        FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
      else { throw error }
      let found = try recordingsOneLevelDown(in: path)
      if found.count == 1 {
        return ResolvedInput(
          path: found[0].path, kind: .recording(format: found[0].format), foundInside: path)
      }
      guard found.count > 1 else { throw error }
      let listed = found.map { "\(($0.path as NSString).lastPathComponent) (\($0.format))" }
      throw FileError(
        .unsupportedFormat(
          "a folder holding \(found.count) recordings one level down, not one: "
            + listed.joined(separator: ", ") + "; give the one to open"),
        path: path)
    }
  }

  /// The recordings directly inside `folder` (sub-folders and files, not PLY files,
  /// names starting with `.` skipped), by name. Entries that are neither a regular file
  /// nor a folder (a named pipe, a device, a broken link) are no recording and are
  /// skipped unopened.
  ///
  /// - Throws: `FileError` when `folder` cannot be listed, or a file in it cannot be
  ///   read (a recording there would otherwise read as absent).
  static func recordingsOneLevelDown(in folder: String) throws -> [(path: String, format: String)] {
    let names: [String]
    do {
      names = try FolderListing.names(in: folder).sorted()
    } catch {
      throw FileError(.cannotRead("the folder cannot be listed (\(error.reason))"), path: folder)
    }
    return try names.filter { !$0.hasPrefix(".") }.compactMap { name in
      let child = (folder as NSString).appendingPathComponent(name)
      // A broken link, or an entry gone since the listing.
      guard FileManager.default.fileExists(atPath: child) else { return nil }
      let isFolder: Bool
      do {
        isFolder = try regularFileOrFolder(child)
      } catch let error as FileError where error.reason == .notARegularFile {
        return nil
      }
      let prefix = isFolder ? [] : try firstBytes(of: child, count: 16)
      let format = formats.first {
        $0.recognizes(path: child, isFolder: isFolder, prefix: prefix)
      }
      return format.map { (child, $0.name) }
    }
  }

  /// Opens the recording at `path`, whatever its format.
  ///
  /// - Throws: the format's error naming what is wrong, or `FileError` when the path is
  ///   not a recording.
  public static func openRecording(_ path: String) throws -> any RecordingSource {
    switch try kind(of: path) {
    case .recording(let name):
      return try openRecording(path, format: name)
    case .ply: throw FileError(.unsupportedFormat("a PLY point cloud, not a recording"), path: path)
    case .cloud(let format):
      throw FileError(.unsupportedFormat("a \(format) point cloud, not a recording"), path: path)
    }
  }

  /// Whether `path` is a folder (true) or a regular file (false), following symbolic
  /// links; anything else is refused at once, before it is opened (opening a named
  /// pipe for reading waits for a writer forever).
  ///
  /// - Throws: `FileError.cannotOpen` with the system's reason when the path does not
  ///   exist or cannot be followed (a loop of symbolic links), `.notARegularFile` for a
  ///   pipe, a device or a socket.
  public static func regularFileOrFolder(_ path: String) throws -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw FileError(.cannotOpen(String(cString: strerror(errno))), path: path)
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return true
    case S_IFREG: return false
    default: throw FileError(.notARegularFile, path: path)
    }
  }

  /// Opens the recording at `path`, already found to be in the format named `name`
  /// (`resolve`), without looking at it again.
  ///
  /// - Throws: the format's error naming what is wrong.
  public static func openRecording(_ path: String, format name: String) throws
    -> any RecordingSource
  {
    guard let format = formats.first(where: { $0.name == name }) else {
      throw FileError(.unsupportedFormat("unknown recording format \(name)"), path: path)
    }
    return try format.open(path)
  }

  static func firstBytes(of path: String, count: Int) throws -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw FileError(.cannotOpen(String(cString: strerror(errno))), path: path)
    }
    defer { try? handle.close() }
    do {
      return Array(try handle.read(upToCount: count) ?? Data())
    } catch {
      throw FileError(.cannotRead("\(error)"), path: path)
    }
  }
}

/// CloudScrub's own recording format.
public enum CloudScrubRecordingFormat: RecordingFormat {
  public static let name = "CloudScrub .csrec"
  public static let lookedFor = "a file starting with the .csrec signature"
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    !isFolder && CloudScrubRecording.hasSignature(prefix)
  }
  public static func open(_ path: String) throws -> any RecordingSource {
    try CloudScrubRecording(path: path)
  }
}

/// Record3D's "EXR + JPG" export folder.
public enum Record3DEXRFormat: RecordingFormat {
  public static let name = "Record3D EXR+JPG"
  public static let lookedFor = "a folder with metadata.json, depth/<i>.exr and rgb/<i>.jpg"
  public static func recognizes(path: String, isFolder: Bool, prefix: [UInt8]) -> Bool {
    isFolder && Record3DEXRRecording.looksLike(folder: path)
  }
  public static func open(_ path: String) throws -> any RecordingSource {
    try Record3DEXRRecording(folder: path)
  }
}
