import CloudScrubCore
import Foundation

/// Reads binary glTF 2.0 (`.glb`): the triangle primitives of every mesh, their
/// `POSITION`, `NORMAL` and `COLOR_0` attributes and indices, from the file's binary
/// chunk, concatenated into one `TriangleMesh`. Meshes are placed where the default
/// scene's nodes put them (`placedMeshes`), or taken once each in a file without
/// nodes; primitives that are not triangles (points, lines, strips) give their vertices
/// and no faces; buffers outside the file (URIs) are refused.
public enum GLBReader {
  private static let magic: UInt32 = 0x4654_6C67
  private static let jsonChunk: UInt32 = 0x4E4F_534A
  private static let binaryChunk: UInt32 = 0x004E_4942

  /// - Throws: `GLBError` naming what is wrong and where.
  public static func read(bytes: UnsafeRawBufferPointer) throws(GLBError) -> TriangleMesh {
    func word(_ offset: Int) throws(GLBError) -> UInt32 {
      guard offset >= 0, offset + 4 <= bytes.count else {
        throw .truncated(needed: offset + 4, size: bytes.count)
      }
      return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    guard try word(0) == magic else { throw .notGLB }
    let version = try word(4)
    guard version == 2 else { throw .unsupportedVersion(version) }
    let length = Int(try word(8))
    guard length <= bytes.count else { throw .truncated(needed: length, size: bytes.count) }
    var offset = 12
    var json: [UInt8]?
    var binary: UnsafeRawBufferPointer?
    while offset + 8 <= length {
      let chunkLength = Int(try word(offset))
      let type = try word(offset + 4)
      let start = offset + 8
      guard chunkLength <= length - start else {
        throw .truncated(needed: start + chunkLength, size: length)
      }
      let chunk = UnsafeRawBufferPointer(rebasing: bytes[start..<start + chunkLength])
      if type == jsonChunk, json == nil { json = Array(chunk) }
      if type == binaryChunk, binary == nil { binary = chunk }
      offset = start + chunkLength
    }
    guard let json else { throw .noJSONChunk }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(json))
    } catch {
      throw .badJSON("\(error)")
    }
    guard let document = object as? [String: Any] else { throw .badJSON("not an object") }
    let buffer = binary.map { UnsafeRawBufferPointer(rebasing: $0[...]) }
    return try GLBDocument(json: document, binary: buffer).mesh()
  }
}

/// Why a GLB file could not be read.
public enum GLBError: Error, Equatable, CustomStringConvertible, Sendable {
  case notGLB
  case unsupportedVersion(UInt32)
  case truncated(needed: Int, size: Int)
  case noJSONChunk
  case badJSON(String)
  /// A part of the JSON is missing or out of range: where, and what is wrong.
  case invalid(String, String)

  public var description: String {
    switch self {
    case .notGLB: "not a binary glTF file (no 'glTF' signature)"
    case .unsupportedVersion(let version): "glTF version \(version), not 2"
    case .truncated(let needed, let size):
      "truncated: needs \(needed) bytes, the file has \(size) (\(needed - size) short)"
    case .noJSONChunk: "no JSON chunk"
    case .badJSON(let reason): "the JSON chunk does not parse: \(reason)"
    case .invalid(let place, let reason): "\(place): \(reason)"
    }
  }
}
