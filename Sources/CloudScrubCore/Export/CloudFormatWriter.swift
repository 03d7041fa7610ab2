/// How an export encodes a cloud, whatever the format.
public struct CloudWriteOptions: Equatable, Sendable {
  /// Text instead of binary, for the formats that have both (PLY, PCD).
  public var ascii: Bool
  /// The optional fields written besides x y z and colour.
  public var attributes: CloudAttributeSelection
  /// For the formats that keep scans (E57): one scan a capture frame, each posed with
  /// its frame's camera-to-world transform here (keyed by the recording's frame index,
  /// as the points' "frame" attribute names it). nil: one scan of every point.
  public var scanPoses: [Int: Transform3D]?

  public init(
    ascii: Bool = false, attributes: CloudAttributeSelection = .none,
    scanPoses: [Int: Transform3D]? = nil
  ) {
    self.ascii = ascii
    self.attributes = attributes
    self.scanPoses = scanPoses
  }
}

/// A point-cloud file format CloudScrub writes: its name, its file extensions and how
/// to write a whole cloud or one that arrives in pieces. The registry of them is
/// `ExportFormats` (CloudScrubFormats).
public protocol CloudFormatWriter: Sendable {
  /// The name `--format` takes ("pcd").
  var name: String { get }
  /// The output extensions, lower case, without the dot (["pcd"]).
  var extensions: [String] { get }
  /// Whether `CloudWriteOptions.ascii` chooses a text form.
  var hasTextForm: Bool { get }

  /// Writes `cloud` to `path` through a temporary file renamed into place.
  ///
  /// - Parameter inputs: the files the cloud came from, which are never overwritten.
  /// - Throws: `CloudWriteError` for options the cloud cannot satisfy, the format's
  ///   write error, `FileError` for I/O; the target is left as it was on any error.
  func write(
    _ cloud: PointCloud, provenance: ExportProvenance, options: CloudWriteOptions,
    to path: String, inputs: [String], progress: ProgressHandler?
  ) throws

  /// A writer for points that arrive in pieces, each with the fields of `fields`.
  ///
  /// - Throws: as `write`, when the fields cannot be written or the target opened.
  func streamWriter(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String]
  ) throws -> any CloudStreamWriter
}

/// Writes a file whose points arrive in pieces (a recording's frames).
public protocol CloudStreamWriter: AnyObject {
  /// Points written so far.
  var count: Int { get }
  /// Adds the points of `piece`, which has the fields the writer was opened with.
  func append(_ piece: PointCloud) throws
  /// Completes the file with its provenance and renames it into place.
  func finish(provenance: ExportProvenance, progress: ProgressHandler?) throws
  /// Removes the temporary files; the target stays as it was.
  func abandon()
}

/// The optional fields one export writes: normals or not, and which attributes, in the
/// cloud's order.
public struct CloudFieldSelection: Sendable {
  public var normals: Bool
  public var attributes: [PointAttribute]

  /// The fields `selection` picks from `cloud`.
  ///
  /// - Throws: `CloudWriteError.unknownAttribute` for a name the cloud lacks,
  ///   `.inconsistentCloud` when its arrays differ in length.
  public init(_ cloud: PointCloud, _ selection: CloudAttributeSelection) throws {
    guard cloud.isConsistent else { throw CloudWriteError.inconsistentCloud }
    switch selection {
    case .none:
      normals = false
      attributes = []
    case .all:
      normals = cloud.normals != nil
      attributes = cloud.attributes
    case .named(let names):
      let available = (cloud.normals == nil ? [] : ["normal"]) + cloud.attributes.map(\.name)
      for name in names where !available.contains(name) {
        throw CloudWriteError.unknownAttribute(name: name, available: available)
      }
      normals = names.contains("normal")
      attributes = cloud.attributes.filter { names.contains($0.name) }
    }
  }

  /// Whether `a` and `b` carry the same fields (names and types), so that pieces of
  /// one stream can be written alike.
  public static func sameFields(_ a: PointCloud, _ b: PointCloud) -> Bool {
    (a.colors == nil) == (b.colors == nil) && (a.normals == nil) == (b.normals == nil)
      && a.attributes.map(\.name) == b.attributes.map(\.name)
      && a.attributes.map(\.values.scalarType) == b.attributes.map(\.values.scalarType)
  }
}
