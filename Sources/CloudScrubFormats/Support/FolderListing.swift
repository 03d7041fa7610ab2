import CloudScrubCore
import Foundation

/// A folder's entries, or the system's own reason why they cannot be listed.
enum FolderListing {
  /// A folder that cannot be listed, with the system's reason ("Permission denied").
  struct Unlistable: Error {
    var reason: String
  }

  /// The names in `folder` (without `.` and `..`), in no particular order.
  ///
  /// - Throws: `Unlistable`, so that a folder that cannot be read is never taken for an
  ///   empty one.
  static func names(in folder: String) throws(Unlistable) -> [String] {
    guard let handle = opendir(folder) else {
      throw Unlistable(reason: String(cString: strerror(errno)))
    }
    defer { closedir(handle) }
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(handle) else { break }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    // readdir's end and its error both return nil; only an error sets errno.
    if errno != 0 { throw Unlistable(reason: String(cString: strerror(errno))) }
    return names
  }
}
