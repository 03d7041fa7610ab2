import Foundation

/// Writes a file under a temporary name beside its target and renames it into place
/// on `commit()`, so that an interrupted write never leaves a half-written target.
///
/// A writer that is released without `commit()` removes its temporary file. While a
/// writer is open its temporary path is also kept in `TemporaryFiles`, so that a
/// signal handler can remove it when the process is interrupted.
public final class AtomicFileWriter {
  public let path: String
  public let temporaryPath: String
  private var descriptor: Int32
  private var finished = false

  /// Opens a temporary file beside `path`.
  ///
  /// - Parameter inputs: files the caller reads from; writing over any of them (the same
  ///   path, or another name for the same file) is refused.
  /// - Throws: `FileError` when the target is one of `inputs` or the folder is not
  ///   writable.
  public init(path: String, protecting inputs: [String] = []) throws {
    self.path = path
    var target = stat()
    if stat(path, &target) == 0 {
      for input in inputs {
        var source = stat()
        if stat(input, &source) == 0 && source.st_dev == target.st_dev
          && source.st_ino == target.st_ino
        {
          throw FileError(.wouldOverwriteInput, path: path)
        }
      }
      guard (target.st_mode & S_IFMT) == S_IFREG else {
        throw FileError(.notARegularFile, path: path)
      }
    }
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    TemporaryFiles.removeStale(in: folder)
    temporaryPath = folder + "/" + TemporaryFiles.name(for: url.lastPathComponent)
    // Registered before it exists, so an interrupt that arrives as the file appears
    // still removes it (unlinking a name not yet created is harmless).
    TemporaryFiles.register(temporaryPath)
    descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      TemporaryFiles.unregister(temporaryPath)
      throw FileError(.cannotWrite(reason), path: path)
    }
  }

  deinit {
    if !finished { abandon() }
  }

  /// Appends `bytes` to the temporary file.
  ///
  /// - Throws: `FileError` on a write error (a full disk, say); `CleaningCancelled` when
  ///   the `WriteCancellation` scope says to stop (the temporary file is removed). The
  ///   target is untouched.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    try stopIfAsked()
    guard var pointer = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let written = Foundation.write(descriptor, pointer, remaining)
      if written < 0 {
        if errno == EINTR { continue }
        throw FileError(.cannotWrite(String(cString: strerror(errno))), path: path)
      }
      pointer += written
      remaining -= written
    }
  }

  public func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try write($0) }
  }

  /// Overwrites bytes already written, `offset` bytes from the start: a header field
  /// known only once the rest is written.
  ///
  /// - Throws: `FileError` on a write error.
  public func write(_ bytes: [UInt8], at offset: Int) throws {
    var done = 0
    while done < bytes.count {
      let written = bytes.withUnsafeBytes {
        pwrite(
          descriptor, $0.baseAddress.unsafelyUnwrapped + done, $0.count - done, off_t(offset + done)
        )
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw FileError(.cannotWrite(String(cString: strerror(errno))), path: path)
      }
      done += written
    }
  }

  /// Closes the temporary file and renames it over the target.
  ///
  /// - Throws: `FileError` when the file cannot be closed or renamed, `CleaningCancelled`
  ///   when the `WriteCancellation` scope says to stop; the temporary file is removed
  ///   and the target is as it was.
  public func commit() throws {
    precondition(!finished, "commit() called twice")
    try stopIfAsked()
    finished = true
    TemporaryFiles.unregister(temporaryPath)
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw FileError(.cannotWrite(reason), path: path)
    }
    guard rename(temporaryPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw FileError(.cannotWrite(reason), path: path)
    }
  }

  /// Abandons the file when the `WriteCancellation` scope says to stop.
  private func stopIfAsked() throws(CleaningCancelled) {
    do { try WriteCancellation.check() } catch {
      abandon()
      throw error
    }
  }

  /// Closes and removes the temporary file, leaving the target as it was.
  public func abandon() {
    guard !finished else { return }
    finished = true
    TemporaryFiles.unregister(temporaryPath)
    close(descriptor)
    unlink(temporaryPath)
  }
}
