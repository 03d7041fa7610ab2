import CloudScrubCore
import Foundation

/// E57 in the registry of export formats: `E57Writer`, one scan of x y z (float) and
/// colour at the identity pose (or, with `CloudWriteOptions.scanPoses`, one scan a
/// frame, posed with its camera: `E57Scan.perFrame`), with the selected normals
/// (`nor:normalX/Y/Z`) and attributes (`cloudscrub:NAME`); the provenance becomes the
/// file's description and entries. E57 writes its sections whole, so a streamed export holds the cloud
/// (`HeldCloudStreamWriter`).
public struct E57FormatWriter: CloudFormatWriter {
  public let name = "e57"
  public let extensions = ["e57"]
  public let hasTextForm = false

  public init() {}

  /// The E57 form of the provenance.
  static func provenance(_ provenance: ExportProvenance) -> E57Provenance {
    let named: [(String, String?)] = [
      ("source", provenance.source), ("frames", provenance.frames),
      ("cleaning", provenance.cleaning),
    ]
    return E57Provenance(
      software: "CloudScrub", description: provenance.lines.joined(separator: "; "),
      entries: named.compactMap { name, value in
        value.map { E57Provenance.Entry(name: name, value: $0) }
      })
  }

  public func write(
    _ cloud: PointCloud, provenance: ExportProvenance, options: CloudWriteOptions,
    to path: String, inputs: [String], progress: ProgressHandler?
  ) throws {
    let selection = try CloudFieldSelection(cloud, options.attributes)
    let written = PointCloud(
      positions: cloud.positions, colors: cloud.colors,
      normals: selection.normals ? cloud.normals : nil, attributes: selection.attributes)
    let url = URL(fileURLWithPath: path)
    if let poses = options.scanPoses {
      try E57Writer.write(
        scans: Self.scans(written, framesOf: cloud, poses: poses),
        provenance: Self.provenance(provenance), to: url, protecting: inputs)
    } else {
      try E57Writer.write(
        cloud: written, provenance: Self.provenance(provenance), to: url, protecting: inputs)
    }
    progress?(1)
  }

  /// `written`'s points as one scan a frame (the "frame" attribute of `source`, the same
  /// points with every field), each posed with `poses`; the frame attribute is written
  /// only where `written` selected it.
  static func scans(
    _ written: PointCloud, framesOf source: PointCloud, poses: [Int: Transform3D]
  ) -> [E57Scan] {
    let selectsFrame = written.attribute(named: "frame") != nil
    var grouped = written
    if !selectsFrame, let frame = source.attribute(named: "frame") {
      grouped.attributes.append(frame)
    }
    return E57Scan.perFrame(grouped, worldFromFrame: { poses[$0] }).map { scan in
      var scan = scan
      if !selectsFrame { scan.cloud.attributes.removeAll { $0.name == "frame" } }
      return scan
    }
  }

  public func streamWriter(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String]
  ) throws -> any CloudStreamWriter {
    _ = try CloudFieldSelection(fields, options.attributes)
    return HeldCloudStreamWriter(fields: fields) { cloud, provenance, progress in
      try self.write(
        cloud, provenance: provenance, options: options, to: path, inputs: inputs,
        progress: progress)
    }
  }
}
