import CloudScrubCore

/// Writes point clouds as text, one point a line: `x y z r g b` (colour as 0–255
/// integers, left out for a cloud without colour), then the selected normals
/// (`nx ny nz`) and attributes. Floats are written in their shortest form that reads
/// back to the same bits. The provenance opens the file as `#` comment lines, then a
/// `#` line naming the columns; `.csv` separates with commas and has a plain header
/// line of column names after the comments instead, as spreadsheets expect.
public struct XYZRecordEncoder: CloudRecordEncoder {
  let colors: Bool
  let fields: CloudFieldSelection
  let separator: UInt8
  let csv: Bool

  public init(fields cloud: PointCloud, options: CloudWriteOptions) throws {
    try self.init(fields: cloud, options: options, csv: false)
  }

  init(fields cloud: PointCloud, options: CloudWriteOptions, csv: Bool) throws {
    colors = cloud.colors != nil
    fields = try CloudFieldSelection(cloud, options.attributes)
    self.csv = csv
    separator = csv ? UInt8(ascii: ",") : UInt8(ascii: " ")
  }

  /// The column names, in order.
  var columns: [String] {
    ["x", "y", "z"] + (colors ? ["r", "g", "b"] : []) + (fields.normals ? ["nx", "ny", "nz"] : [])
      + fields.attributes.map { $0.name.replacingSpaces() }
  }

  public func header(count: Int, provenance: ExportProvenance) -> [UInt8] {
    var lines = provenance.lines.map { "# " + $0 }
    lines.append("# \(count) points")
    lines.append(
      csv ? columns.joined(separator: ",") : "# columns: " + columns.joined(separator: " "))
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  public mutating func encode(
    _ piece: PointCloud, _ range: Range<Int>, into buffer: inout [UInt8]
  ) throws {
    let attributes = fields.attributes.compactMap { piece.attribute(named: $0.name)?.values }
    TextRecordLines(
      separator: separator, color: colors ? .channels : .none, normals: fields.normals
    )
    .append(piece, range, attributes: attributes, to: &buffer)
  }
}

/// `.csv`'s encoder: `XYZRecordEncoder` with commas and a header line.
public struct CSVRecordEncoder: CloudRecordEncoder {
  var base: XYZRecordEncoder

  public init(fields cloud: PointCloud, options: CloudWriteOptions) throws {
    base = try XYZRecordEncoder(fields: cloud, options: options, csv: true)
  }

  public mutating func encode(
    _ piece: PointCloud, _ range: Range<Int>, into buffer: inout [UInt8]
  ) throws {
    try base.encode(piece, range, into: &buffer)
  }

  public func header(count: Int, provenance: ExportProvenance) -> [UInt8] {
    base.header(count: count, provenance: provenance)
  }
}

/// XYZ text (`.xyz`, `.txt`) or CSV (`.csv`) in the registry of export formats.
public struct XYZFormatWriter: CloudFormatWriter {
  public let name: String
  public let extensions: [String]
  /// Always text: `--ascii` changes nothing.
  public let hasTextForm = true
  let csv: Bool

  /// Space-separated text (`xyz`: `.xyz`, `.txt`) or comma-separated (`csv`).
  public init(csv: Bool = false) {
    self.csv = csv
    name = csv ? "csv" : "xyz"
    extensions = csv ? ["csv"] : ["xyz", "txt"]
  }

  public func write(
    _ cloud: PointCloud, provenance: ExportProvenance, options: CloudWriteOptions,
    to path: String, inputs: [String], progress: ProgressHandler?
  ) throws {
    if csv {
      try EncodedCloudFile.write(
        cloud, as: CSVRecordEncoder.self, provenance: provenance, options: options, to: path,
        inputs: inputs, progress: progress)
    } else {
      try EncodedCloudFile.write(
        cloud, as: XYZRecordEncoder.self, provenance: provenance, options: options, to: path,
        inputs: inputs, progress: progress)
    }
  }

  public func streamWriter(
    path: String, fields: PointCloud, options: CloudWriteOptions, inputs: [String]
  ) throws -> any CloudStreamWriter {
    if csv {
      return try SpooledCloudStreamWriter<CSVRecordEncoder>(
        path: path, fields: fields, options: options, inputs: inputs)
    }
    return try SpooledCloudStreamWriter<XYZRecordEncoder>(
      path: path, fields: fields, options: options, inputs: inputs)
  }
}
