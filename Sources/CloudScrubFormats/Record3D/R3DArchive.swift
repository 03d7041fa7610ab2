import CZip
import Foundation

/// A ZIP archive opened read-only with libzip, whose entries are read whole into
/// memory: nothing is ever extracted to disk.
///
/// Reads go through one lock because a libzip archive handle must not be used from
/// several threads at once; callers decode what they read (LZFSE, JPEG) outside it.
/// The handle is released with the last reference.
final class R3DArchive: @unchecked Sendable {
  /// The archive file.
  let path: String
  /// Every entry's name, in the archive's order.
  let entryNames: [String]
  private let entryIndices: [String: UInt64]
  private let archive: OpaquePointer
  private let lock = NSLock()

  /// Opens `path` read-only and lists its entries (the central directory only).
  ///
  /// - Throws: `R3DError.notAZipArchive` with libzip's message when the file cannot be
  ///   opened as a ZIP archive.
  init(path: String) throws {
    self.path = path
    var code: Int32 = 0
    guard let archive = zip_open(path, ZIP_RDONLY, &code) else {
      var error = zip_error_t()
      zip_error_init_with_code(&error, code)
      defer { zip_error_fini(&error) }
      throw R3DError(
        .notAZipArchive(message: String(cString: zip_error_strerror(&error))), path: path)
    }
    self.archive = archive
    let count = max(0, zip_get_num_entries(archive, 0))
    var names = [String]()
    var indices = [String: UInt64]()
    names.reserveCapacity(Int(count))
    for index in 0..<UInt64(count) {
      guard let name = zip_get_name(archive, index, 0) else { continue }
      let text = String(cString: name)
      names.append(text)
      // The first of two entries with one name wins, as unzip tools do.
      if indices[text] == nil { indices[text] = index }
    }
    entryNames = names
    entryIndices = indices
  }

  deinit { zip_discard(archive) }

  /// Whether the archive has an entry named exactly `name`.
  func contains(_ name: String) -> Bool { entryIndices[name] != nil }

  /// Whether an entry name is absolute or has a `..` component: no Record3D entry
  /// does, and a tool that extracted it would write outside its folder.
  static func isUnsafe(_ name: String) -> Bool {
    if name.hasPrefix("/") || name.hasPrefix("\\") { return true }
    let scalars = Array(name.unicodeScalars.prefix(2))
    if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return true }
    return name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
  }

  /// The whole uncompressed content of entry `name`.
  ///
  /// The size the central directory declares is checked against `limitBytes` before
  /// anything is allocated; the content must then be exactly that size and pass its
  /// CRC.
  ///
  /// - Throws: `R3DError` (`unsafeEntryName`, `missingEntry`, `entryTooLarge`,
  ///   `unreadableEntry`) naming the entry.
  func read(_ name: String, limitBytes: Int) throws -> [UInt8] {
    guard !Self.isUnsafe(name) else { throw R3DError(.unsafeEntryName(name), path: path) }
    guard let index = entryIndices[name] else {
      throw R3DError(.missingEntry(name), path: path)
    }
    lock.lock()
    defer { lock.unlock() }
    var stat = zip_stat_t()
    zip_stat_init(&stat)
    guard zip_stat_index(archive, index, 0, &stat) == 0,
      stat.valid & UInt64(ZIP_STAT_SIZE) != 0
    else { throw unreadable(name, String(cString: zip_strerror(archive))) }
    guard stat.size <= UInt64(limitBytes) else {
      throw R3DError(
        .entryTooLarge(
          entry: name, declaredBytes: Int(clamping: stat.size), limitBytes: limitBytes),
        path: path)
    }
    let size = Int(stat.size)
    guard let file = zip_fopen_index(archive, index, 0) else {
      throw unreadable(name, String(cString: zip_strerror(archive)))
    }
    defer { zip_fclose(file) }
    var failure: String?
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      var total = 0
      while total < size, let base = buffer.baseAddress {
        let got = zip_fread(file, base + total, UInt64(size - total))
        if got < 0 { failure = String(cString: zip_file_strerror(file)) }
        if got <= 0 { break }
        total += Int(got)
      }
      count = total
    }
    if let failure { throw unreadable(name, failure) }
    guard bytes.count == size else {
      throw unreadable(name, "it ends after \(bytes.count) of its \(size) bytes")
    }
    // Reading past the end makes libzip check the CRC and reveals data beyond the
    // declared size.
    var extra: UInt8 = 0
    let after = zip_fread(file, &extra, 1)
    if after < 0 { throw unreadable(name, String(cString: zip_file_strerror(file))) }
    if after > 0 { throw unreadable(name, "it holds more than its declared \(size) bytes") }
    return bytes
  }

  private func unreadable(_ name: String, _ message: String) -> R3DError {
    R3DError(.unreadableEntry(entry: name, message: message), path: path)
  }
}
