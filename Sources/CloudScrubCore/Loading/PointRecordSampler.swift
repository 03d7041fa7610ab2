/// A file of fixed-size point records, one after another, that can be read by record
/// index: what a `SampledCloudLoad` samples evenly and then reads whole. A reader of a
/// file format conforms (a binary PLY's vertices); the load knows nothing of the
/// records' layout.
public protocol PointRecordSampler: Sendable {
  /// The mapped file the records lie in.
  var file: MappedFile { get }
  /// How many records the file holds.
  var count: Int { get }
  /// The bytes of one record.
  var recordSize: Int { get }
  /// The byte offset of the first record in `file`.
  var recordsOffset: Int { get }

  /// Appends the points of the records `records` (each below `count`), in order, to
  /// `points`. A file truncated meanwhile reads zeros, which `checkIntact()` reports.
  func read(records: Range<Int>, into points: inout FramePoints)

  /// Throws when the file was found shorter than when it was mapped.
  ///
  /// - Throws: the format's error for a truncated record, path last.
  func checkIntact() throws

  /// Checks what the file holds after the records once they have all been read, so a
  /// file cut there fails as the format's whole-file reader would fail it.
  ///
  /// - Throws: the format's error, path last.
  func checkAfterRecords() throws
}
