import CloudScrubCore
import Foundation

/// Where a `.r3d` recording's entries (`metadata`, `rgbd/<n>.depth`, …) are read from:
/// the ZIP archive itself (`R3DArchive`) or the folder it was unzipped into
/// (`R3DFolder`), which Record3D's own docs and most scripts tell people to make.
protocol R3DEntries: Sendable {
  /// The archive file or the folder.
  var path: String { get }
  /// Every entry's name (`metadata`, `rgbd/0.depth`, …).
  var entryNames: [String] { get }
  /// Whether there is an entry named exactly `name`.
  func contains(_ name: String) -> Bool
  /// The whole content of entry `name`, refused past `limitBytes`.
  ///
  /// - Throws: `R3DError` naming the entry.
  func read(_ name: String, limitBytes: Int) throws -> [UInt8]
}

extension R3DArchive: R3DEntries {}

/// An unzipped `.r3d`: a folder holding the file `metadata` and the folder `rgbd/` with
/// the frames' `<n>.depth`, `<n>.conf` and `<n>.jpg`, read as the archive's entries.
struct R3DFolder: R3DEntries {
  let path: String
  let entryNames: [String]
  private let names: Set<String>

  /// Whether `folder` looks like an unzipped `.r3d`: a file `metadata` beside a folder
  /// `rgbd`. Reads no file.
  static func looksLike(folder: String) -> Bool {
    let files = FileManager.default
    var isFolder: ObjCBool = false
    let metadata = (folder as NSString).appendingPathComponent("metadata")
    guard files.fileExists(atPath: metadata, isDirectory: &isFolder), !isFolder.boolValue
    else { return false }
    let rgbd = (folder as NSString).appendingPathComponent("rgbd")
    return files.fileExists(atPath: rgbd, isDirectory: &isFolder) && isFolder.boolValue
  }

  /// Lists `folder`'s `metadata` and `rgbd/` files.
  ///
  /// - Throws: `R3DError` when `rgbd/` is there but cannot be listed (its frames would
  ///   read as missing).
  init(folder: String) throws {
    path = folder
    let rgbd = (folder as NSString).appendingPathComponent("rgbd")
    var frames: [String] = []
    if FileManager.default.fileExists(atPath: rgbd) {
      do {
        frames = try FolderListing.names(in: rgbd).sorted()
      } catch {
        throw R3DError(.unlistableFolder("rgbd", message: error.reason), path: folder)
      }
    }
    let hasMetadata = FileManager.default.fileExists(
      atPath: (folder as NSString).appendingPathComponent("metadata"))
    entryNames = (hasMetadata ? ["metadata"] : []) + frames.map { "rgbd/" + $0 }
    names = Set(entryNames)
  }

  func contains(_ name: String) -> Bool { names.contains(name) }

  func read(_ name: String, limitBytes: Int) throws -> [UInt8] {
    guard names.contains(name) else { throw R3DError(.missingFile(name), path: path) }
    do {
      return try FileBytes.read(
        (path as NSString).appendingPathComponent(name), limitBytes: limitBytes)
    } catch let error as FileBytes.TooLarge {
      throw R3DError(
        .entryTooLarge(entry: name, declaredBytes: error.bytes, limitBytes: limitBytes),
        path: path)
    } catch let error as FileError {
      throw R3DError(.unreadableEntry(entry: name, message: FileBytes.reason(error)), path: path)
    }
  }
}
