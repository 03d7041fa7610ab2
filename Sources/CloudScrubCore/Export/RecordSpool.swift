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

  /// Writes `header`, then the spooled records, then `trailer`, and renames the target
  /// into place.
  ///
  /// - Throws: `FileError` on an I/O error; the target is then left as it was.
  public func finish(header: [UInt8], trailer: [UInt8] = [], progress: ProgressHandler?) throws {
    defer { spool.abandon() }
    try file.write(header)
    try copySpool(progress: progress)
    try file.write(trailer)
    try file.commit()
  }

  /// Maps the spooled records and hands them, with the target's temporary file, to
  /// `body`, which writes the whole target from them (an index built over every record
  /// first: COPC); then renames the target into place.
  ///
  /// - Throws: `FileError` on an I/O error, or what `body` throws; the target is then
  ///   left as it was.
  public func finish(reading body: (UnsafeRawBufferPointer, AtomicFileWriter) throws -> Void)
    throws
  {
    defer { spool.abandon() }
    let records = try MappedFile(path: spool.temporaryPath)
    try body(records.bytes, file)
    try file.commit()
  }

  /// Removes both temporary files.
  public func abandon() {
    spool.abandon()
    file.abandon()
  }

  private func copySpool(progress: ProgressHandler?) throws {
    let input = open(spool.temporaryPath, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else {
      throw FileError(.cannotRead(String(cString: strerror(errno))), path: spool.temporaryPath)
    }
    defer { close(input) }
    let total = Double(max(1, lseek(input, 0, SEEK_END)))
    lseek(input, 0, SEEK_SET)
    let bufferSize = 4 << 20
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 64)
    defer { buffer.deallocate() }
    var copied = 0
    while true {
      let got = read(input, buffer.baseAddress, bufferSize)
      if got < 0 {
        if errno == EINTR { continue }
        throw FileError(.cannotRead(String(cString: strerror(errno))), path: spool.temporaryPath)
      }
      if got == 0 { break }
      try file.write(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
      copied += got
      progress?(Double(copied) / total)
    }
  }
}
