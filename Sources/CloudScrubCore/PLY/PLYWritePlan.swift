/// The properties one export writes and how it encodes them.
struct PLYWritePlan {
  let cloud: PointCloud
  let format: PLYFormat
  let comments: [String]
  let writesNormals: Bool
  let attributes: [PointAttribute]

  init(cloud: PointCloud, options: PLYWriteOptions) throws {
    guard cloud.isConsistent else { throw PLYWriteError.inconsistentCloud }
    self.cloud = cloud
    format = options.format
    comments = options.comments
    switch options.attributes {
    case .none:
      writesNormals = false
      attributes = []
    case .all:
      writesNormals = cloud.normals != nil
      attributes = cloud.attributes
    case .named(let names):
      let available = (cloud.normals == nil ? [] : ["normal"]) + cloud.attributes.map(\.name)
      for name in names where !available.contains(name) {
        throw PLYWriteError.unknownAttribute(name: name, available: available)
      }
      writesNormals = names.contains("normal")
      attributes = cloud.attributes.filter { names.contains($0.name) }
    }
  }

  /// Bytes of one binary record.
  var recordSize: Int {
    12 + (cloud.colors == nil ? 0 : 3) + (writesNormals ? 12 : 0)
      + attributes.reduce(0) { $0 + $1.values.scalarType.byteCount }
  }

  var header: String {
    var lines = ["ply", "format \(format.rawValue) 1.0"]
    lines += comments.map { "comment \($0.replacingNewlines())" }
    lines.append("element vertex \(cloud.count)")
    lines += ["x", "y", "z"].map { "property float \($0)" }
    if cloud.colors != nil { lines += ["red", "green", "blue"].map { "property uchar \($0)" } }
    if writesNormals { lines += ["nx", "ny", "nz"].map { "property float \($0)" } }
    lines += attributes.map { "property \($0.values.scalarType.plyName) \($0.name)" }
    lines.append("end_header")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Encodes the body in chunks of about a megabyte, handing each to `sink`.
  func encodeBody(
    progress: ProgressHandler?, sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let chunkRecords = max(1, (1 << 20) / recordSize)
    var start = 0
    var buffer: [UInt8] = []
    while start < cloud.count {
      let end = min(start + chunkRecords, cloud.count)
      switch format {
      case .ascii: encodeASCII(start..<end, into: &buffer)
      case .binaryLittleEndian: encodeBinary(start..<end, swapped: false, into: &buffer)
      case .binaryBigEndian: encodeBinary(start..<end, swapped: true, into: &buffer)
      }
      try buffer.withUnsafeBytes { try sink($0) }
      progress?(Double(end) / Double(cloud.count))
      start = end
    }
  }
}

extension String {
  fileprivate func replacingNewlines() -> String {
    String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
  }
}
