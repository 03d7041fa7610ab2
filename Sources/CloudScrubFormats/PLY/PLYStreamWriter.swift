import CloudScrubCore
import Foundation

/// Writes a PLY file whose points arrive in pieces (a recording's frames, say), holding
/// none of them: the same bytes `PLYWriter.write` gives for all the pieces as one cloud.
///
/// A PLY header starts with the vertex count, which is known only once the last piece
/// is in. So records go to a spool file beside the target as they come, and `finish`
/// writes the header and then the spooled records to the target's temporary file,
/// which is renamed into place as with `PLYWriter`. Both temporary files are removed on
/// any error, or when the writer is released unfinished.
public final class PLYStreamWriter {
  private let options: PLYWriteOptions
  private let template: PointCloud
  private let spool: RecordSpool
  /// Records spooled so far.
  public private(set) var count = 0

  /// Opens the target and its spool.
  ///
  /// - Parameters:
  ///   - fields: a cloud (usually empty) with the fields every piece will have; the
  ///     attribute selection is checked against it now.
  ///   - inputs: the files the points come from; the writer refuses to overwrite them.
  /// - Throws: `CloudWriteError` for an attribute the fields lack, `FileError` when the
  ///   target cannot be written.
  public init(
    path: String, fields: PointCloud, options: PLYWriteOptions, inputs: [String] = []
  ) throws {
    _ = try PLYWritePlan(cloud: fields, options: options)
    self.options = options
    template = fields.subset(indices: [])
    spool = try RecordSpool(path: path, inputs: inputs)
  }

  /// Spools the records of `piece`, which has the fields the writer was opened with.
  ///
  /// - Throws: `CloudWriteError` when the piece's fields differ, `FileError` on a write
  ///   error.
  public func append(_ piece: PointCloud) throws {
    guard piece.count > 0 else { return }
    guard Self.sameFields(piece, template) else { throw CloudWriteError.inconsistentCloud }
    let plan = try PLYWritePlan(cloud: piece, options: options)
    try plan.encodeBody(progress: nil) { chunk in try spool.append(chunk) }
    count += piece.count
  }

  /// Writes the header (with `comments` after the writer's own) and the spooled
  /// records, and renames the file into place.
  ///
  /// - Throws: `FileError` on an I/O error; the target is then left as it was.
  public func finish(comments: [String] = [], progress: ProgressHandler? = nil) throws {
    let plan = try PLYWritePlan(cloud: template, options: options)
    let header = plan.header(vertexCount: count, comments: options.comments + comments)
    try spool.finish(header: Array(header.utf8), progress: progress)
  }

  /// Removes both temporary files; the target stays as it was.
  public func abandon() { spool.abandon() }

  private static func sameFields(_ a: PointCloud, _ b: PointCloud) -> Bool {
    (a.colors == nil) == (b.colors == nil) && (a.normals == nil) == (b.normals == nil)
      && a.attributes.map(\.name) == b.attributes.map(\.name)
      && a.attributes.map(\.values.scalarType) == b.attributes.map(\.values.scalarType)
  }
}
