import Foundation
import Synchronization

/// The temporary files `AtomicFileWriter` is still writing, kept so that a signal
/// handler can remove them when the process is interrupted, and the clean-up of those a
/// killed process (SIGKILL, a crash) could not remove.
///
/// The handler may only do what is async-signal-safe: no allocation, no lock, no Swift
/// array. So the paths live in a fixed table allocated once by `prepare()`: `capacity`
/// slots of `PATH_MAX` bytes, each with a flag that is set only once its C string is
/// complete and cleared before the slot is reused. `removeAll()` reads the flags and
/// calls `unlink` on the set slots, nothing else.
public enum TemporaryFiles {
  /// How many temporary files can be registered at once; a writer past it still works,
  /// but its file is not removed on a signal.
  public static let capacity = 64
  static let slotBytes = Int(PATH_MAX)

  private static let lock = NSLock()
  /// `capacity` × `slotBytes` bytes of C strings.
  nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> = {
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity * slotBytes)
    pointer.initialize(repeating: 0, count: capacity * slotBytes)
    return pointer
  }()
  /// 1 where the slot holds a registered path.
  nonisolated(unsafe) private static let used: UnsafeMutablePointer<Int32> = {
    let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
    pointer.initialize(repeating: 0, count: capacity)
    return pointer
  }()

  /// Allocates the table. Call before installing a handler that calls `removeAll()`,
  /// so that the handler never runs the table's lazy initialisation.
  public static func prepare() {
    _ = paths
    _ = used
  }

  /// Registers `path`; returns its slot, or nil when the table is full or the path
  /// too long to store.
  @discardableResult
  static func register(_ path: String) -> Int? {
    let bytes = Array(path.utf8)
    guard bytes.count < slotBytes, !bytes.contains(0) else { return nil }
    lock.lock()
    defer { lock.unlock() }
    guard let slot = (0..<capacity).first(where: { used[$0] == 0 }) else { return nil }
    let start = paths + slot * slotBytes
    for (offset, byte) in bytes.enumerated() { start[offset] = CChar(bitPattern: byte) }
    start[bytes.count] = 0
    // The string is complete before the handler can see the slot as used.
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    used[slot] = 1
    atomicMemoryFence(ordering: .sequentiallyConsistent)
    return slot
  }

  /// Forgets `path` (after it was renamed into place or removed).
  static func unregister(_ path: String) {
    lock.lock()
    defer { lock.unlock() }
    for slot in 0..<capacity where used[slot] == 1 {
      if String(cString: paths + slot * slotBytes) == path {
        used[slot] = 0
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return
      }
    }
  }

  /// The registered paths, for tests.
  static var registered: [String] {
    lock.lock()
    defer { lock.unlock() }
    return (0..<capacity).filter { used[$0] == 1 }.map { String(cString: paths + $0 * slotBytes) }
  }

  /// Unlinks every registered file. Async-signal-safe once `prepare()` has run: meant
  /// for a SIGINT or SIGTERM handler just before `_exit`.
  public static func removeAll() {
    for slot in 0..<capacity where used[slot] == 1 {
      unlink(paths + slot * slotBytes)
    }
  }

  // MARK: - Stale files

  /// The name of a new temporary file for target `name`:
  /// `.NAME.tmp-PID-RANDOM`, hidden, and naming the process that writes it.
  static func name(for name: String) -> String {
    ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// The process that wrote temporary file `name`, or nil when `name` is not one.
  static func writer(of name: String) -> pid_t? {
    guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards),
      marker.lowerBound > name.index(after: name.startIndex)
    else { return nil }
    let fields = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
    guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, UInt32(fields[1]) != nil,
      fields.allSatisfy({ $0.allSatisfy(\.isASCII) })
    else { return nil }
    return pid
  }

  /// Removes the temporary files in `folder` whose writer is no longer running: what an
  /// export killed without a chance to clean up (SIGKILL, a crash, a power cut) left.
  /// Only regular files of this process's user named like `name(for:)` are touched; a
  /// file whose process still runs (or whose number was reused) is left alone.
  ///
  /// - Returns: the names removed.
  @discardableResult
  public static func removeStale(in folder: String) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return []
    }
    var removed: [String] = []
    for name in names {
      guard let pid = writer(of: name), pid != getpid() else { continue }
      guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
      let path = folder + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
        info.st_uid == getuid()
      else { continue }
      if unlink(path) == 0 { removed.append(name) }
    }
    return removed.sorted()
  }
}
