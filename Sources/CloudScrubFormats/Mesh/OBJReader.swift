import CloudScrubCore

/// Reads Wavefront OBJ text: vertices (`v x y z`, with the `r g b` colour extension in
/// 0…1), vertex normals (`vn`) and faces (`f` with `a`, `a/t`, `a//n` or `a/t/n`
/// references, 1-based or negative from the end), polygons cut into fans of triangles.
/// A vertex takes the normal its first face reference names. Texture coordinates,
/// groups, materials, lines and points are passed over.
public enum OBJReader {
  /// - Throws: `OBJError` naming the line and what is wrong there.
  public static func read(bytes: UnsafeRawBufferPointer) throws(OBJError) -> TriangleMesh {
    var mesh = TriangleMesh()
    var normals: [Point3] = []
    var vertexNormal: [Int32] = []
    var hasColors = false
    var lineNumber = 0
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      lineNumber += 1
      let line = String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
      start = end + 1
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      guard let keyword = fields.first else { continue }
      func number(_ k: Int) throws(OBJError) -> Float {
        guard k < fields.count, let value = Float(fields[k]), value.isFinite else {
          throw .badLine(lineNumber, "'\(keyword)' needs finite numbers")
        }
        return value
      }
      switch keyword {
      case "v":
        mesh.positions.append(Point3(try number(1), try number(2), try number(3)))
        if fields.count >= 7 {
          func channel(_ k: Int) throws(OBJError) -> UInt8 {
            UInt8(min(max(try number(k), 0), 1) * 255 + 0.5)
          }
          mesh.colors.append(RGB8(try channel(4), try channel(5), try channel(6)))
          hasColors = true
        } else {
          mesh.colors.append(FramePoints.noColor)
        }
        vertexNormal.append(-1)
      case "vn":
        normals.append(Point3(try number(1), try number(2), try number(3)))
      case "f":
        var corners: [UInt32] = []
        for field in fields.dropFirst() {
          let parts = field.split(separator: "/", omittingEmptySubsequences: false)
          let vertex = try resolve(parts[0], count: mesh.positions.count, line: lineNumber)
          if parts.count == 3, !parts[2].isEmpty, vertexNormal[vertex] < 0 {
            vertexNormal[vertex] = Int32(
              try resolve(parts[2], count: normals.count, line: lineNumber))
          }
          corners.append(UInt32(vertex))
        }
        guard corners.count >= 3 else { throw .badLine(lineNumber, "a face needs 3 vertices") }
        for k in 1..<(corners.count - 1) {
          mesh.triangles.append(SIMD3(corners[0], corners[k], corners[k + 1]))
        }
      default:
        continue
      }
    }
    if !hasColors { mesh.colors = Array(repeating: FramePoints.noColor, count: mesh.vertexCount) }
    if !vertexNormal.isEmpty, vertexNormal.allSatisfy({ $0 >= 0 }) {
      mesh.normals = vertexNormal.map { normals[Int($0)] }
    }
    return mesh
  }

  /// The 0-based index a reference names among `count` items: 1…count, or −1…−count
  /// counting back from the last.
  private static func resolve(_ text: Substring, count: Int, line: Int) throws(OBJError) -> Int {
    guard let value = Int(text), value != 0, abs(value) <= count else {
      throw .badLine(line, "reference '\(text.prefix(40))' to \(count) items")
    }
    return value > 0 ? value - 1 : count + value
  }

  /// Whether the first lines of a file (`prefix`) look like OBJ: the first line that is
  /// neither empty nor a comment starts with an OBJ keyword.
  public static func recognizes(prefix: [UInt8]) -> Bool {
    let text = String(decoding: prefix, as: UTF8.self)
    let keywords = ["v", "vn", "vt", "f", "o", "g", "s", "mtllib", "usemtl"]
    for line in text.split(whereSeparator: \.isNewline) {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let first = fields.first else { continue }
      if first.hasPrefix("#") { continue }
      return keywords.contains(String(first)) && fields.count >= 2
    }
    return false
  }
}

/// Why an OBJ file could not be read.
public enum OBJError: Error, Equatable, CustomStringConvertible, Sendable {
  case badLine(Int, String)

  public var description: String {
    switch self {
    case .badLine(let line, let reason): "line \(line): \(reason)"
    }
  }
}
