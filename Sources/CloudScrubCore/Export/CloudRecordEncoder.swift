import Foundation

/// How one format lays out a file of point records: a header that names the record
/// count (so it is written last when the points stream), then the records.
///
/// `EncodedCloudFile` writes a whole cloud with one; `SpooledCloudStreamWriter`
/// writes streamed pieces with one, spooling the records beside the target.
public protocol CloudRecordEncoder {
  /// An encoder for clouds with the fields of `fields` (usually empty).
  ///
  /// - Throws: `CloudWriteError` when the options select a field `fields` lacks.
  init(fields: PointCloud, options: CloudWriteOptions) throws

  /// Gets ready for exactly the points of `cloud` (a whole-cloud write), before the
  /// header is asked for; a format whose header depends on the points (LAS bounds)
  /// looks at them here.
  mutating func prepare(whole cloud: PointCloud) throws

  /// Appends the records of `piece[range]` to `buffer`.
  ///
  /// - Throws: the format's write error for a point it cannot hold.
  mutating func encode(_ piece: PointCloud, _ range: Range<Int>, into buffer: inout [UInt8])
    throws

  /// The header of a file holding the `count` records encoded (or prepared) so far.
  func header(count: Int, provenance: ExportProvenance) throws -> [UInt8]
}

extension CloudRecordEncoder {
  public mutating func prepare(whole cloud: PointCloud) throws {}
}

/// Writes whole clouds through a `CloudRecordEncoder`: header, then records in chunks
/// of about a megabyte.
public enum EncodedCloudFile {
  /// Writes `cloud` to `path` through a temporary file renamed into place.
  ///
  /// - Throws: `CloudWriteError` for options the cloud cannot satisfy, the encoder's
  ///   errors, `FileError` for I/O; the target is left as it was on any error.
  public static func write<Encoder: CloudRecordEncoder>(
    _ cloud: PointCloud, as _: Encoder.Type, provenance: ExportProvenance,
    options: CloudWriteOptions, to path: String, inputs: [String], progress: ProgressHandler?
  ) throws {
    var encoder = try Encoder(fields: cloud, options: options)
    try encoder.prepare(whole: cloud)
    let header = try encoder.header(count: cloud.count, provenance: provenance)
    let file = try AtomicFileWriter(path: path, protecting: inputs)
    try file.write(header)
    try encodeChunks(cloud, &encoder, progress: progress) { try file.write($0) }
    try file.commit()
  }

  /// The whole file as bytes (small clouds, tests, fuzz seeds).
  public static func encode<Encoder: CloudRecordEncoder>(
    _ cloud: PointCloud, as _: Encoder.Type, provenance: ExportProvenance,
    options: CloudWriteOptions = CloudWriteOptions()
  ) throws -> [UInt8] {
    var encoder = try Encoder(fields: cloud, options: options)
    try encoder.prepare(whole: cloud)
    var bytes = try encoder.header(count: cloud.count, provenance: provenance)
    try encodeChunks(cloud, &encoder, progress: nil) { bytes.append(contentsOf: $0) }
    return bytes
  }

  static func encodeChunks<Encoder: CloudRecordEncoder>(
    _ cloud: PointCloud, _ encoder: inout Encoder, progress: ProgressHandler?,
    sink: ([UInt8]) throws -> Void
  ) throws {
    let chunkRecords = 1 << 15
    var buffer: [UInt8] = []
    var start = 0
    while start < cloud.count {
      let end = min(start + chunkRecords, cloud.count)
      buffer.removeAll(keepingCapacity: true)
      try encoder.encode(cloud, start..<end, into: &buffer)
      try sink(buffer)
      start = end
      progress?(Double(end) / Double(cloud.count))
    }
  }
}

/// A streaming writer for any `CloudRecordEncoder`: records go to a spool file beside
/// the target as they come; `finish` writes the header and then the spooled records
/// into the target's temporary file, renamed into place. The same bytes as
/// `EncodedCloudFile.write` of all the pieces as one cloud.
public final class SpooledCloudStreamWriter<Encoder: CloudRecordEncoder>: CloudStreamWriter {
  private var encoder: Encoder
  private let template: PointCloud
  private let spool: RecordSpool
  private var buffer: [UInt8] = []
  private let transform: (any SpoolTransform)?
  public private(set) var count = 0

  /// Opens the target and its spool.
  ///
  /// - Parameter transform: what the records go through on their way to the spool and
  ///   how the file is completed (nil: the header, then the records as they are).
  /// - Throws: `CloudWriteError` for a selected field `fields` lacks, `FileError` when
  ///   the target cannot be written.
  public init(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String] = [],
    transform: (any SpoolTransform)? = nil
  ) throws {
    self.transform = transform
    encoder = try Encoder(fields: fields, options: options)
    template = fields.subset(indices: [])
    spool = try RecordSpool(path: path, inputs: inputs)
  }

  public func append(_ piece: PointCloud) throws {
    guard piece.count > 0 else { return }
    guard CloudFieldSelection.sameFields(piece, template), piece.isConsistent else {
      throw CloudWriteError.inconsistentCloud
    }
    buffer.removeAll(keepingCapacity: true)
    try encoder.encode(piece, 0..<piece.count, into: &buffer)
    if let transform {
      try buffer.withUnsafeBytes { try transform.append($0, to: spool) }
    } else {
      try spool.append(buffer)
    }
    count += piece.count
  }

  public func finish(provenance: ExportProvenance, progress: ProgressHandler?) throws {
    let header = try encoder.header(count: count, provenance: provenance)
    guard let transform else { return try spool.finish(header: header, progress: progress) }
    try transform.finish(header: header, spool: spool, progress: progress)
  }

  public func abandon() { spool.abandon() }
}

/// A format whose streamed records are transformed on their way into the spool (LAZ
/// compresses them as they come) and whose file is completed from the transformed spool.
public protocol SpoolTransform: AnyObject {
  /// Takes the records of one appended piece and spools what they become.
  func append(_ records: UnsafeRawBufferPointer, to spool: RecordSpool) throws
  /// Completes and renames the file: `header` is the encoder's for every record.
  func finish(header: [UInt8], spool: RecordSpool, progress: ProgressHandler?) throws
}
