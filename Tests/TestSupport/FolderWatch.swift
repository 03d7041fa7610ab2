import Foundation

/// Waits for a file to appear in a folder by the kernel's word (inotify), not by
/// polling on a timer: the wait ends when the entry is created, or at the timeout.
public enum FolderWatch {
  /// Whether an entry whose name starts with `prefix` exists in `folder`, or appears
  /// there within `timeout` seconds.
  ///
  /// - Throws: `XToolError` when the folder cannot be watched.
  public static func waitForEntry(
    in folder: String, prefix: String, timeout: TimeInterval
  ) throws -> Bool {
    let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard fd >= 0 else {
      throw XToolError("inotify_init1 failed: \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    guard inotify_add_watch(fd, folder, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
      throw XToolError("cannot watch \(folder): \(String(cString: strerror(errno)))")
    }
    func present() -> Bool {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains {
        $0.hasPrefix(prefix)
      }
    }
    // The watch is in place before the first look, so no creation can fall between.
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !present() {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, Int32(min(left * 1000, Double(Int32.max))) + 1)
      if ready < 0 && errno != EINTR {
        throw XToolError("poll failed: \(String(cString: strerror(errno)))")
      }
      // Drain the events; the next look decides.
      _ = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    }
    return true
  }
}
