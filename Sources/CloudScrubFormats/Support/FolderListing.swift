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
    // The system's reason comes from opening the folder; Foundation's error for the
    // listing words it for no one.
    guard let handle = opendir(folder) else {
      throw Unlistable(reason: String(cString: strerror(errno)))
    }
    closedir(handle)
    do {
      return try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw Unlistable(reason: "\(error)")
    }
  }
}
