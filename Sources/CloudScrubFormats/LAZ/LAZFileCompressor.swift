import CloudScrubCore
import Foundation

/// Compresses an uncompressed LAS 1.4 file of point formats 6–8 into LAZ with the
/// export's codecs (`LAZChunkWriter`): the header, VLRs, records and EVLRs as they are,
/// so the LAZ decompresses to the file's records exactly. `bench clouds` times it beside
/// lazrs compressing the same records.
public enum LAZFileCompressor {
  /// Writes `input` compressed to `output`, through a temporary file renamed into place.
  ///
  /// - Throws: `LASError` for a file that is not an uncompressed, complete LAS 1.4 file
  ///   of point format 6, 7 or 8; `FileError` for I/O.
  public static func compress(las input: String, to output: String) throws {
    let file = try MappedFile(path: input)
    let bytes = file.bytes
    do {
      let (header, start, count, complete) = try LASReader.withRecords(bytes) {
        header, _, records, notes in
        (
          header, records.baseAddress.map { $0 - bytes.baseAddress.unsafelyUnwrapped } ?? 0,
          records.count, notes.isEmpty
        )
      }
      guard !header.compressed, header.versionMinor == 4, (6...8).contains(header.pointFormat)
      else {
        throw LASErrorReason.laz(
          "only uncompressed LAS 1.4 files of point formats 6-8 are compressed, not LAS 1.\(header.versionMinor) format \(header.pointFormat)\(header.compressed ? " (compressed)" : "")"
        )
      }
      guard complete, count == header.points * header.recordLength else {
        throw LASErrorReason.laz(
          "its point records are incomplete; only whole files are compressed")
      }
      let laz = LAZFileHeader.header(las: Array(bytes[0..<start]))
      let records = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
      let target = try AtomicFileWriter(path: output, protecting: [input])
      let end = try LAZChunkWriter.write(
        header: laz, recordLength: header.recordLength, to: target
      ) { try $0.append(records) }
      // EVLRs follow the chunk table, and the header says where they start now.
      let evlrs = Int(bytes.loadUnaligned(fromByteOffset: 235, as: UInt64.self).littleEndian)
      if evlrs > 0 && evlrs < bytes.count {
        try target.write(UnsafeRawBufferPointer(rebasing: bytes[evlrs...]))
        var offset: [UInt8] = []
        offset.appendLittleEndian(UInt64(end))
        try target.write(offset, at: 235)
      }
      try target.commit()
    } catch let reason as LASErrorReason {
      throw LASError(reason, path: input)
    }
  }
}
