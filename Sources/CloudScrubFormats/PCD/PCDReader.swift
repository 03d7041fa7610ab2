import CloudScrubCore
import Foundation

/// Reads PCD files (v0.5–v0.7): ASCII, binary, and `binary_compressed` when given an
/// LZF decompressor (CloudScrubFormats passes liblzf's).
///
/// `x y z` become positions (any numeric type), `rgb`/`rgba` colours (PCL's packed
/// float or integer), `normal_x normal_y normal_z` normals, `_` padding is skipped, and
/// every other field becomes an attribute in its own type (64-bit integers as double;
/// a field of count n as `name_0` … `name_{n-1}`). Invalid points (NaN coordinates, as
/// in organised clouds) are kept as they are.
public enum PCDReader {
  /// Decompresses LZF: the compressed bytes and the exact size they expand to; nil
  /// when the data is not valid LZF or expands to another size.
  public typealias LZFDecompressor = @Sendable (UnsafeRawBufferPointer, Int) -> [UInt8]?

  /// A PCD file read: its header and its points.
  public struct Document: Sendable {
    public var header: PCDHeader
    public var cloud: PointCloud
  }

  /// Reads the PCD file at `path` through a memory map, telling `progress` the fraction
  /// read.
  ///
  /// - Throws: `PCDError` naming what is wrong and where, with the path; `FileError`
  ///   when the file cannot be opened.
  public static func read(
    path: String, lzf: LZFDecompressor? = nil, progress: ProgressHandler? = nil
  ) throws -> Document {
    let file = try MappedFile(path: path)
    do {
      return try read(bytes: file.bytes, lzf: lzf, progress: progress)
    } catch {
      throw PCDError(error, path: path)
    }
  }

  /// Reads a whole PCD file held in memory, telling `progress` the fraction read: the
  /// columns gathered (binary), the lines parsed and then the columns (ASCII, 80 % and
  /// 20 %), or the data decompressed and then the columns (compressed, half each).
  ///
  /// - Throws: `PCDErrorReason` naming what is wrong and where.
  public static func read(
    bytes: UnsafeRawBufferPointer, lzf: LZFDecompressor? = nil, progress: ProgressHandler? = nil
  ) throws(PCDErrorReason) -> Document {
    let header = try PCDHeader.parse(bytes)
    let body = UnsafeRawBufferPointer(rebasing: bytes[header.dataOffset...])
    let recordSize = header.recordSize
    let (expected, overflow) = header.points.multipliedReportingOverflow(by: recordSize)
    guard !overflow else {
      throw .truncated(points: header.points, expectedBytes: Int.max, availableBytes: body.count)
    }
    let cloud: PointCloud
    switch header.data {
    case .binary:
      guard expected <= body.count else {
        throw .truncated(
          points: header.points, expectedBytes: expected, availableBytes: body.count)
      }
      cloud = PCDColumn.cloud(
        PCDColumn.interleaved(header.fields), records: body, points: header.points,
        progress: progress)
    case .ascii:
      let records = try PCDASCIIData.records(
        body, header: header, progress: ProgressParts.part(progress, from: 0, to: 0.8))
      cloud = records.withUnsafeBytes { records in
        PCDColumn.cloud(
          PCDColumn.interleaved(header.fields), records: records, points: header.points,
          progress: ProgressParts.part(progress, from: 0.8, to: 1))
      }
    case .binaryCompressed:
      let records = try decompress(body, header: header, expected: expected, lzf: lzf)
      progress?(0.5)
      cloud = records.withUnsafeBytes { records in
        PCDColumn.cloud(
          PCDColumn.planar(header.fields, points: header.points), records: records,
          points: header.points, progress: ProgressParts.part(progress, from: 0.5, to: 1))
      }
    }
    return Document(header: header, cloud: cloud)
  }

  /// The records of `binary_compressed` data: two little-endian `UInt32` sizes, then
  /// LZF bytes expanding to the fields one after another (all x, then all y, …).
  static func decompress(
    _ body: UnsafeRawBufferPointer, header: PCDHeader, expected: Int, lzf: LZFDecompressor?
  ) throws(PCDErrorReason) -> [UInt8] {
    guard body.count >= 8 else {
      throw .truncated(points: header.points, expectedBytes: 8, availableBytes: body.count)
    }
    let compressed = Int(body.littleEndian(at: 0, as: UInt32.self))
    let uncompressed = Int(body.littleEndian(at: 4, as: UInt32.self))
    // LZF expands at most about 100-fold; a claim past that is no LZF stream.
    guard uncompressed == expected, compressed <= body.count - 8,
      uncompressed <= compressed * 100 + 1024
    else {
      throw .compressedSizes(
        compressedBytes: compressed, uncompressedBytes: uncompressed, expectedBytes: expected)
    }
    guard expected > 0 else { return [] }
    guard let lzf else { throw .compressedNeedsLZF }
    guard
      let bytes = lzf(UnsafeRawBufferPointer(rebasing: body[8..<(8 + compressed)]), expected),
      bytes.count == expected
    else { throw .decompressionFailed(compressedBytes: compressed) }
    return bytes
  }
}
