import CloudScrubCore
import Foundation

/// A file format that holds a triangle mesh.
public protocol MeshFormatWriter: Sendable {
  /// The format's name for `--format` and messages.
  var name: String { get }
  /// File extensions, lower case, without the dot.
  var extensions: [String] { get }
  /// Encodes `mesh` and hands the bytes to `write` in pieces, in file order.
  ///
  /// - Parameter comment: a line about where the mesh came from, kept in the file.
  func encode(_ mesh: TriangleMesh, comment: String, _ write: ([UInt8]) throws -> Void) throws
}

/// The mesh formats CloudScrub writes, chosen by name or by the output's extension.
public enum MeshFormats {
  public static let all: [any MeshFormatWriter] = [
    MeshPLYWriter(), MeshOBJWriter(), MeshGLBWriter(),
  ]

  /// The format `name` names, or else the one `path`'s extension names.
  ///
  /// - Throws: `MeshFormatError.unknown` for a name or extension no format has.
  public static func writer(forPath path: String, name: String? = nil) throws
    -> any MeshFormatWriter
  {
    if let name {
      guard let writer = all.first(where: { $0.name == name.lowercased() }) else {
        throw MeshFormatError.unknown(name, known: all.map(\.name))
      }
      return writer
    }
    let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
    guard let writer = all.first(where: { $0.extensions.contains(ext) }) else {
      throw MeshFormatError.unknown(ext.isEmpty ? path : ".\(ext)", known: all.map(\.name))
    }
    return writer
  }

  /// Writes `mesh` to `path` under a temporary name, renamed into place when complete;
  /// `inputs` are never overwritten.
  public static func write(
    _ mesh: TriangleMesh, to path: String, writer: any MeshFormatWriter, comment: String,
    protecting inputs: [String] = []
  ) throws {
    let file = try AtomicFileWriter(path: path, protecting: inputs)
    do {
      try writer.encode(mesh, comment: comment) { try file.write($0) }
      try file.commit()
    } catch {
      file.abandon()
      throw error
    }
  }
}

/// Why a mesh could not be written.
public enum MeshFormatError: Error, Equatable, CustomStringConvertible {
  case unknown(String, known: [String])
  /// More vertices or triangles than the format's counts hold.
  case tooLarge(format: String, count: Int)

  public var description: String {
    switch self {
    case .unknown(let name, let known):
      "no mesh format for '\(name)': mesh outputs are \(known.joined(separator: ", "))"
    case .tooLarge(let format, let count):
      "\(count) elements do not fit a \(format) file's 32-bit counts"
    }
  }
}

/// Little-endian bytes appended to a buffer.
struct LittleEndianBytes {
  var bytes: [UInt8] = []

  mutating func append(_ value: Float) { append(value.bitPattern) }

  mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func append(_ text: String) { bytes.append(contentsOf: Array(text.utf8)) }
}

/// Vertices and triangles handed out in pieces of this many, so that writing a large
/// mesh holds one piece of its encoding at a time.
let meshPieceSize = 1 << 16
