import CloudScrubCore
import Foundation

/// The properties one export writes and how it encodes them.
struct PLYWritePlan {
  let cloud: PointCloud
  let format: PLYFormat
  let comments: [String]
  let writesNormals: Bool
  let attributes: [PointAttribute]

  init(cloud: PointCloud, options: PLYWriteOptions) throws {
    guard cloud.isConsistent else { throw CloudWriteError.inconsistentCloud }
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
        throw CloudWriteError.unknownAttribute(name: name, available: available)
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

  var header: String { header(vertexCount: cloud.count, comments: comments) }

  /// The header of a file of `vertexCount` records laid out as this plan's (a
  /// streaming export knows its count and comments only at the end).
  func header(vertexCount: Int, comments: [String]) -> String {
    var lines = ["ply", "format \(format.rawValue) 1.0"]
    lines += comments.map { "comment \($0.replacingNewlines())" }
    lines.append("element vertex \(vertexCount)")
    lines += ["x", "y", "z"].map { "property float \($0)" }
    if cloud.colors != nil { lines += ["red", "green", "blue"].map { "property uchar \($0)" } }
    if writesNormals { lines += ["nx", "ny", "nz"].map { "property float \($0)" } }
    lines += attributes.map { "property \($0.values.scalarType.plyName) \($0.name)" }
    lines.append("end_header")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Encodes the body in chunks of about a megabyte, handing each to `sink` in order.
  /// ASCII, whose number formatting is the slow part, encodes one chunk a core at a
  /// time.
  func encodeBody(
    progress: ProgressHandler?, sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    let chunkRecords = max(1, (1 << 20) / (format == .ascii ? 40 : recordSize))
    let chunks = (cloud.count + chunkRecords - 1) / chunkRecords
    let batch = format == .ascii ? Parallel.cores : 1
    let buffers = ParallelSlots<[UInt8]>(count: batch, initial: [])
    var chunk = 0
    while chunk < chunks {
      let inBatch = min(batch, chunks - chunk)
      let first = chunk
      let encode = { @Sendable [self] (k: Int) in
        let start = (first + k) * chunkRecords
        let records = start..<min(start + chunkRecords, cloud.count)
        buffers.modify(k) { buffer in
          switch format {
          case .ascii: encodeASCII(records, into: &buffer)
          case .binaryLittleEndian: encodeBinary(records, swapped: false, into: &buffer)
          case .binaryBigEndian: encodeBinary(records, swapped: true, into: &buffer)
          }
        }
      }
      if inBatch > 1 {
        Parallel.perform(iterations: inBatch, encode)
      } else {
        encode(0)
      }
      for k in 0..<inBatch {
        try buffers.modify(k) { buffer in try buffer.withUnsafeBytes { try sink($0) } }
      }
      chunk += inBatch
      progress?(Double(min(chunk * chunkRecords, cloud.count)) / Double(cloud.count))
    }
  }
}

extension String {
  /// The text on one line: newlines and carriage returns become spaces.
  func replacingNewlines() -> String {
    String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
  }
}
