import Foundation

/// Records spooled beside a target whose header can be written only once they are all
/// in: `finish` writes the header and copies the spool into the target's temporary
/// file, which is renamed into place. Both temporary files go on any error, or when
/// the spool is released unfinished.
public final class RecordSpool {
  private let file: AtomicFileWriter
  private let spool: AtomicFileWriter

  /// Opens the target's temporary file and the spool.
  ///
  /// - Throws: `FileError` when the target cannot be written or is one of `inputs`.
  public init(path: String, inputs: [String]) throws {
    file = try AtomicFileWriter(path: path, protecting: inputs)
    spool = try AtomicFileWriter(path: path, protecting: inputs)
  }

  /// Adds records to the spool.
  public func append(_ bytes: [UInt8]) throws { try spool.write(bytes) }

  public func append(_ bytes: UnsafeRawBufferPointer) throws { try spool.write(bytes) }

  /// Writes `header`, then the spooled records, and renames the target into place.
  ///
  /// - Throws: `FileError` on an I/O error; the target is then left as it was.
  public func finish(header: [UInt8], progress: ProgressHandler?) throws {
    try finish(header: header, pieceBytes: 4 << 20, progress: progress) { try file.write($0) }
  }

  /// Writes `header`, then hands the spooled records to `write` in pieces of
  /// `pieceBytes` (all whole but the last, so whole records when it is a multiple of
  /// the record size), then runs `end` with the target's file, and renames the target
  /// into place.
  ///
  /// - Throws: `FileError` on an I/O error, and what `write` or `end` throws; the
  ///   target is then left as it was.
  public func finish(
    header: [UInt8], pieceBytes: Int, progress: ProgressHandler?,
    write: (UnsafeRawBufferPointer) throws -> Void,
    end: (AtomicFileWriter) throws -> Void = { _ in }
  ) throws {
    defer { spool.abandon() }
    try file.write(header)
    try readSpool(pieceBytes: pieceBytes, progress: progress, write)
    try end(file)
    try file.commit()
  }

  /// The target's temporary file, which a `write` given to `finish` writes to.
  public var target: AtomicFileWriter { file }

  /// Removes both temporary files.
  public func abandon() {
    spool.abandon()
    file.abandon()
  }

  private func readSpool(
    pieceBytes: Int, progress: ProgressHandler?, _ write: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let input = open(spool.temporaryPath, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else {
      throw FileError(.cannotRead(String(cString: strerror(errno))), path: spool.temporaryPath)
    }
    defer { close(input) }
    let total = Double(max(1, lseek(input, 0, SEEK_END)))
    lseek(input, 0, SEEK_SET)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceBytes, alignment: 64)
    defer { buffer.deallocate() }
    var copied = 0
    var atEnd = false
    while !atEnd {
      var filled = 0
      while filled < pieceBytes {
        let got = read(input, buffer.baseAddress.unsafelyUnwrapped + filled, pieceBytes - filled)
        if got < 0 {
          if errno == EINTR { continue }
          throw FileError(
            .cannotRead(String(cString: strerror(errno))), path: spool.temporaryPath)
        }
        if got == 0 {
          atEnd = true
          break
        }
        filled += got
      }
      guard filled > 0 else { break }
      try write(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
      copied += filled
      progress?(Double(copied) / total)
    }
  }
}
