import CloudScrubCore

/// PLY in the registry of export formats: `PLYWriter` and `PLYStreamWriter`, with the
/// provenance as header comments.
public struct PLYFormatWriter: CloudFormatWriter {
  public let name = "ply"
  public let extensions = ["ply"]
  public let hasTextForm = true

  public init() {}

  /// The PLY options for format-neutral ones: binary little-endian or ASCII.
  public static func plyOptions(_ options: CloudWriteOptions, comments: [String] = [])
    -> PLYWriteOptions
  {
    PLYWriteOptions(
      format: options.ascii ? .ascii : .binaryLittleEndian, attributes: options.attributes,
      comments: comments)
  }

  public func write(
    _ cloud: PointCloud, provenance: ExportProvenance, options: CloudWriteOptions,
    to path: String, inputs: [String], progress: ProgressHandler?
  ) throws {
    try PLYWriter.write(
      cloud, to: path, options: Self.plyOptions(options, comments: provenance.lines),
      inputs: inputs, progress: progress)
  }

  public func streamWriter(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String]
  ) throws -> any CloudStreamWriter {
    PLYCloudStreamWriter(
      try PLYStreamWriter(
        path: path, fields: fields, options: Self.plyOptions(options), inputs: inputs))
  }
}

/// `PLYStreamWriter` as a `CloudStreamWriter`: the provenance becomes the comments.
final class PLYCloudStreamWriter: CloudStreamWriter {
  private let writer: PLYStreamWriter

  init(_ writer: PLYStreamWriter) { self.writer = writer }

  var count: Int { writer.count }
  func append(_ piece: PointCloud) throws { try writer.append(piece) }
  func finish(provenance: ExportProvenance, progress: ProgressHandler?) throws {
    try writer.finish(comments: provenance.lines, progress: progress)
  }
  func abandon() { writer.abandon() }
}
