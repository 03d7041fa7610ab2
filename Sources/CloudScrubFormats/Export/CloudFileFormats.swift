import CloudScrubCore
import Foundation

/// A point cloud read from a file of any format CloudScrub reads, with what `info`
/// says about the file.
public struct LoadedCloud: Sendable {
  /// The format in words ("PCD 0.7 binary_compressed", "LAS 1.4 point format 7").
  public var format: String
  public var cloud: PointCloud
  /// The file's own notes: PLY/PCD comments, a LAS provenance record, XYZ comments.
  public var comments: [String]
  /// The PLY header, for a PLY file.
  public var plyHeader: PLYHeader?
  /// A mesh file's triangles (OBJ, glTF): indices of the cloud's points, its vertices.
  public var triangles: [SIMD3<UInt32>]? = nil
  /// The file's up axis: z for LAS and LAZ, whose z is elevation; y for the rest.
  public var worldUp: WorldUp = .y
  /// What the reader noticed about a damaged file (points missing, chunks not read);
  /// also among the comments, which `info` prints.
  public var notes: [String] = []
}

/// One point-cloud file format CloudScrub reads: how to recognise it by content and
/// how to read it. `CloudFileFormats.all` lists them.
public protocol CloudFileFormat: SendableMetatype {
  /// A short name ("PCD").
  static var name: String { get }
  /// What the detector looks for, for the error listing everything it tried.
  static var lookedFor: String { get }
  /// Whether a file whose first bytes (up to `CloudFileFormats.prefixBytes`) are
  /// `prefix` is this format.
  static func recognizes(prefix: [UInt8]) -> Bool
  /// Reads the file.
  ///
  /// - Throws: an error naming what is wrong and where, with the path.
  static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud
  /// The format's up axis (what `LoadedCloud.worldUp` says of its files).
  static var worldUp: WorldUp { get }
  /// Reads what can be read of a damaged file (for LAZ: the chunks before a corrupt
  /// one, with a note) where `read` would fail: what the window shows.
  static func readWhatReads(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud
}

extension CloudFileFormat {
  public static var worldUp: WorldUp { .y }
  public static func readWhatReads(_ path: String, progress: ProgressHandler?) throws
    -> LoadedCloud
  {
    try read(path, progress: progress)
  }
}

/// The point-cloud formats, detected by content.
public enum CloudFileFormats {
  /// Tried in order: the signatures first, text last.
  public static let all: [any CloudFileFormat.Type] = [
    PLYFileFormat.self, PCDFileFormat.self, LASFileFormat.self, E57FileFormat.self,
    GLBFileFormat.self, OBJFileFormat.self, XYZFileFormat.self,
  ]

  /// How many leading bytes detection looks at (text needs a whole line or two).
  public static let prefixBytes = 4096

  /// The format of a file whose first bytes are `prefix`, if any.
  public static func format(of prefix: [UInt8]) -> (any CloudFileFormat.Type)? {
    for format in all where format.recognizes(prefix: prefix) { return format }
    return nil
  }

  /// The name of the format of a file whose first bytes are `prefix`, if any.
  public static func formatName(of prefix: [UInt8]) -> String? {
    for format in all where format.recognizes(prefix: prefix) { return format.name }
    return nil
  }

  /// The format named `name`.
  public static func named(_ name: String) -> (any CloudFileFormat.Type)? {
    all.first { $0.name == name }
  }

  /// Reads the point cloud at `path`, whatever its format.
  ///
  /// - Throws: the format's error, or `FileError` when it is no point-cloud file.
  ///
  /// - Parameter whatReads: read what can be read of a damaged file
  ///   (`CloudFileFormat.readWhatReads`), as the window does.
  public static func read(
    _ path: String, progress: ProgressHandler? = nil, whatReads: Bool = false
  ) throws -> LoadedCloud {
    let prefix = try InputDetector.firstBytes(of: path, count: prefixBytes)
    guard let format = format(of: prefix) else {
      throw FileError(.unsupportedFormat("no point-cloud file CloudScrub knows"), path: path)
    }
    return whatReads
      ? try format.readWhatReads(path, progress: progress)
      : try format.read(path, progress: progress)
  }
}

/// PLY: points, or 3D Gaussian splats shown as points (`GaussianSplats`).
public enum PLYFileFormat: CloudFileFormat {
  public static let name = "PLY"
  public static let lookedFor = "a PLY file (first line 'ply')"
  public static func recognizes(prefix: [UInt8]) -> Bool {
    prefix.starts(with: Array("ply\n".utf8)) || prefix.starts(with: Array("ply\r\n".utf8))
  }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    let document = try PLYReader.read(path: path, progress: progress)
    let splats = GaussianSplats.isSplatCloud(document.cloud) && document.cloud.colors == nil
    return LoadedCloud(
      format: "PLY \(document.header.format.rawValue) \(document.header.version)"
        + (splats ? " (3D Gaussian splats)" : ""),
      cloud: GaussianSplats.points(of: document.cloud), comments: document.header.comments,
      plyHeader: document.header, triangles: document.triangles)
  }
}

/// PCD (the Point Cloud Library's format).
public enum PCDFileFormat: CloudFileFormat {
  public static let name = "PCD"
  public static let lookedFor = "a PCD file (a '# .PCD' or 'VERSION' first line)"
  public static func recognizes(prefix: [UInt8]) -> Bool {
    let text = String(decoding: prefix.prefix(64), as: UTF8.self)
    return text.hasPrefix("# .PCD") || text.hasPrefix("VERSION ") || text.hasPrefix("VERSION\t")
  }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    let document = try PCDReader.read(path: path, lzf: LZF.pcdDecompressor, progress: progress)
    let h = document.header
    return LoadedCloud(
      format: "PCD \(h.version ?? "?") \(h.data.rawValue)", cloud: document.cloud,
      comments: h.comments.filter { !$0.hasPrefix(".PCD") }, plyHeader: nil)
  }
}

/// LAS 1.0–1.4, and LAZ (LASzip-compressed LAS, COPC among them).
public enum LASFileFormat: CloudFileFormat {
  public static let name = "LAS"
  /// LAS's z is elevation.
  public static let worldUp = WorldUp.z
  public static let lookedFor = "a LAS file (signature 'LASF')"
  public static func recognizes(prefix: [UInt8]) -> Bool {
    prefix.starts(with: Array("LASF".utf8))
  }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    loaded(try LASReader.read(path: path, progress: progress))
  }

  public static func readWhatReads(_ path: String, progress: ProgressHandler?) throws
    -> LoadedCloud
  {
    loaded(try LASReader.read(path: path, keepingGoodChunks: true, progress: progress))
  }

  /// The format in words: "LAZ 1.4 point format 7, COPC octree of 4 levels, 65 nodes
  /// (writer)".
  public static func format(of h: LASReader.Header) -> String {
    (h.compressed ? "LAZ" : "LAS")
      + " \(h.versionMajor).\(h.versionMinor) point format \(h.pointFormat)"
      + (h.copc.map { ", COPC octree of \($0.levels) levels, \($0.nodes) nodes" } ?? "")
      + (h.software.isEmpty ? "" : " (\(h.software))")
  }

  /// The lines of a `CloudScrub` provenance VLR.
  public static func provenanceLines(of h: LASReader.Header) -> [String] {
    h.provenance.map { $0.split(separator: "\n").map(String.init) } ?? []
  }

  private static func loaded(_ document: LASReader.Document) -> LoadedCloud {
    let h = document.header
    return LoadedCloud(
      format: format(of: h), cloud: document.cloud,
      comments: provenanceLines(of: h) + document.notes,
      plyHeader: nil, worldUp: worldUp, notes: document.notes)
  }
}

/// E57 (ASTM E2807): every cartesian scan, merged in the file's world frame.
public enum E57FileFormat: CloudFileFormat {
  public static let name = "E57"
  public static let lookedFor = "an E57 file (signature 'ASTM-E57')"
  public static func recognizes(prefix: [UInt8]) -> Bool { E57Reader.hasSignature(prefix) }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    let contents = try E57Reader.contents(of: path, progress: progress)
    return LoadedCloud(
      format: "E57, \(contents.scans.count) scan\(contents.scans.count == 1 ? "" : "s")"
        + (contents.writer.isEmpty ? "" : " (\(contents.writer))"),
      cloud: contents.cloud, comments: [], plyHeader: nil)
  }
}

/// Text points: XYZ, TXT, CSV.
public enum XYZFileFormat: CloudFileFormat {
  public static let name = "XYZ text"
  public static let lookedFor =
    "text points (lines of x y z [r g b], separated by spaces, tabs or commas)"
  public static func recognizes(prefix: [UInt8]) -> Bool {
    XYZReader.looksLikeText(prefix, isWholeFile: prefix.count < CloudFileFormats.prefixBytes)
  }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    let document = try XYZReader.read(path: path, progress: progress)
    return LoadedCloud(
      format: name, cloud: document.cloud, comments: document.comments, plyHeader: nil)
  }
}
