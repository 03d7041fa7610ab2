import Foundation

/// A read-only memory map of a whole file, unmapped when released.
///
/// Readers work on `bytes` directly, so large binary bodies are copied into their
/// destination arrays without an intermediate buffer. If another process truncates the
/// file while it is mapped, the bytes past the new end read as zeros instead of
/// killing the process (`MappingGuard`), and `checkIntact()` says so: a reader calls it
/// once it has read what it needs, before trusting what it read.
public final class MappedFile {
  public let path: String
  private let address: UnsafeMutableRawPointer?
  private let length: Int
  private let guardSlot: Int?

  /// Maps the file at `path`.
  ///
  /// - Throws: `FileError` when the path cannot be opened, is not a regular file, or
  ///   cannot be mapped.
  public init(path: String) throws {
    self.path = path
    // Non-blocking, so that a named pipe put where a file should be is refused at once
    // by the check below instead of waiting for a writer; a regular file ignores it.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      throw FileError(.cannotOpen(String(cString: strerror(errno))), path: path)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw FileError(.cannotRead(String(cString: strerror(errno))), path: path)
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileError(.notARegularFile, path: path) }
    length = Int(info.st_size)
    if length == 0 {
      address = nil
      guardSlot = nil
      return
    }
    let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0)
    guard let mapped, mapped != MAP_FAILED else {
      throw FileError(.cannotRead(String(cString: strerror(errno))), path: path)
    }
    // The whole file is read front to back: tell the kernel to read ahead.
    _ = madvise(mapped, length, MADV_SEQUENTIAL)
    address = mapped
    guardSlot = MappingGuard.register(mapped, length: length)
  }

  deinit {
    if let guardSlot { MappingGuard.unregister(guardSlot) }
    if let address { munmap(address, length) }
  }

  /// Whether the file was found shorter than when it was mapped: another process
  /// truncated it, and bytes past its new end were read as zeros.
  public var wasTruncated: Bool {
    guardSlot.map(MappingGuard.wasTruncated) ?? false
  }

  /// Throws when the file was truncated while it was being read, so that nothing read
  /// from the zeros is trusted.
  ///
  /// - Throws: `FileError` with `.changedWhileReading`.
  public func checkIntact() throws {
    if wasTruncated { throw FileError(.changedWhileReading, path: path) }
  }

  /// Asks the kernel to read the pages under `range` ahead, without waiting for them:
  /// many scattered ranges asked for at once are read with many requests in flight,
  /// where faulting them in one by one waits for each read (and its readahead) in turn.
  public func prefetch(_ range: Range<Int>) {
    guard let address, !range.isEmpty else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let start = max(range.lowerBound, 0) / page * page
    let end = min((range.upperBound + page - 1) / page * page, (length + page - 1) / page * page)
    guard end > start else { return }
    _ = madvise(address + start, end - start, MADV_WILLNEED)
  }

  /// Lets the kernel drop the pages that lie wholly inside `range`: bytes a reader has
  /// finished with (a decoded frame), so that streaming through a file larger than
  /// memory keeps only what is in use resident. Reading them again later is still
  /// correct: the mapping is private and never written, so they fault back in from the
  /// file.
  public func discard(_ range: Range<Int>) {
    guard let address, !range.isEmpty else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let start = (max(range.lowerBound, 0) + page - 1) / page * page
    let end = min(range.upperBound, length) / page * page
    guard end > start else { return }
    _ = madvise(address + start, end - start, MADV_DONTNEED)
  }

  /// The file's bytes; valid while this object is alive.
  public var bytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: address, count: length)
  }
}
