import CZip
import Foundation

/// Why a `.r3d` (or any ZIP) could not be written.
public struct R3DWriteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong, without the path.
  public var message: String
  /// The file being written; printed last.
  public var path: String

  public init(_ message: String, path: String) {
    self.message = message
    self.path = path
  }

  public var description: String { "cannot write .r3d: \(message): \(path)" }
}

/// Writes a ZIP archive with libzip: entries are collected in memory and the file is
/// written when `close()` is called (libzip writes a temporary file and renames it,
/// so a failed write leaves no half archive). Not for concurrent use.
final class R3DArchiveWriter {
  let path: String
  private var archive: OpaquePointer?

  /// Starts a new archive at `path`, replacing any file there on `close()`.
  ///
  /// - Throws: `R3DWriteError` with libzip's message.
  init(path: String) throws {
    self.path = path
    var code: Int32 = 0
    guard let archive = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
      var error = zip_error_t()
      zip_error_init_with_code(&error, code)
      defer { zip_error_fini(&error) }
      throw R3DWriteError(String(cString: zip_error_strerror(&error)), path: path)
    }
    self.archive = archive
  }

  deinit {
    if let archive { zip_discard(archive) }
  }

  /// Adds entry `name` holding `bytes`, deflated, or stored when `compressed` is false.
  ///
  /// - Throws: `R3DWriteError` naming the entry.
  func add(_ name: String, _ bytes: [UInt8], compressed: Bool = true) throws {
    guard let archive else { throw R3DWriteError("archive already closed", path: path) }
    // libzip keeps the buffer until `zip_close` and frees it then (freep = 1). It
    // never frees a zero-length buffer, so an empty entry gets none.
    var buffer: UnsafeMutableRawPointer?
    if !bytes.isEmpty {
      buffer = malloc(bytes.count)
      guard let buffer else { throw R3DWriteError("out of memory for '\(name)'", path: path) }
      bytes.withUnsafeBytes { raw in
        if let base = raw.baseAddress { buffer.copyMemory(from: base, byteCount: raw.count) }
      }
    }
    let freesBuffer: Int32 = buffer == nil ? 0 : 1
    guard let source = zip_source_buffer(archive, buffer, UInt64(bytes.count), freesBuffer) else {
      free(buffer)
      throw R3DWriteError("entry '\(name)': \(String(cString: zip_strerror(archive)))", path: path)
    }
    let index = zip_file_add(archive, name, source, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8)
    guard index >= 0 else {
      zip_source_free(source)
      throw R3DWriteError("entry '\(name)': \(String(cString: zip_strerror(archive)))", path: path)
    }
    if !compressed {
      zip_set_file_compression(archive, UInt64(index), ZIP_CM_STORE, 0)
    }
  }

  /// Writes the archive to disk.
  ///
  /// - Throws: `R3DWriteError` with libzip's message; the archive is then discarded.
  func close() throws {
    guard let archive else { return }
    self.archive = nil
    guard zip_close(archive) == 0 else {
      let message = String(cString: zip_strerror(archive))
      zip_discard(archive)
      throw R3DWriteError(message, path: path)
    }
  }

  /// A stream of `bytes` made only of uncompressed (`bvx-`) blocks, which every LZFSE
  /// decoder accepts; blocks of at most 1 MiB, then the end-of-stream block `bvx$`.
  static func lzfseStored(_ bytes: [UInt8]) -> [UInt8] {
    let blockLimit = 1 << 20
    var stream = [UInt8]()
    stream.reserveCapacity(bytes.count + 8 * (bytes.count / blockLimit + 1) + 4)
    var start = 0
    repeat {
      let end = min(start + blockLimit, bytes.count)
      stream += Array("bvx-".utf8)
      withUnsafeBytes(of: UInt32(end - start).littleEndian) { stream += $0 }
      stream += bytes[start..<end]
      start = end
    } while start < bytes.count
    stream += Array("bvx$".utf8)
    return stream
  }
}
