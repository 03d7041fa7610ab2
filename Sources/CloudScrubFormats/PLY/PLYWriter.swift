import CloudScrubCore

/// How a cloud is written to PLY.
public struct PLYWriteOptions: Equatable, Sendable {
  public var format: PLYFormat
  public var attributes: CloudAttributeSelection
  /// Lines written as `comment` in the header, in order.
  public var comments: [String]

  public init(
    format: PLYFormat = .binaryLittleEndian, attributes: CloudAttributeSelection = .none,
    comments: [String] = []
  ) {
    self.format = format
    self.attributes = attributes
    self.comments = comments
  }
}

/// Writes point clouds as PLY: x y z as float, red green blue as uchar, then normals
/// and attributes in their own types when selected.
public enum PLYWriter {
  /// Writes `cloud` to `path` through a temporary file renamed into place.
  ///
  /// - Parameter inputs: the files the cloud was read from; the export refuses to
  ///   write over any of them.
  /// - Throws: `CloudWriteError` for options the cloud cannot satisfy, `FileError` for
  ///   I/O; the target is left as it was on any error.
  public static func write(
    _ cloud: PointCloud, to path: String, options: PLYWriteOptions = PLYWriteOptions(),
    inputs: [String] = [], progress: ProgressHandler? = nil
  ) throws {
    let plan = try PLYWritePlan(cloud: cloud, options: options)
    let file = try AtomicFileWriter(path: path, protecting: inputs)
    try file.write(Array(plan.header.utf8))
    try plan.encodeBody(progress: progress) { chunk in try file.write(chunk) }
    try file.commit()
  }

  /// The whole file as bytes (for small clouds and tests).
  public static func encode(
    _ cloud: PointCloud, options: PLYWriteOptions = PLYWriteOptions()
  ) throws -> [UInt8] {
    let plan = try PLYWritePlan(cloud: cloud, options: options)
    var bytes = Array(plan.header.utf8)
    try plan.encodeBody(progress: nil) { chunk in bytes.append(contentsOf: chunk) }
    return bytes
  }
}
