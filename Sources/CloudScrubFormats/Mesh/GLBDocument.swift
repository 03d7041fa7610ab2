import CloudScrubCore

/// The parts of a glTF document `GLBReader` reads, with every offset, stride and count
/// checked against the binary chunk before a value is read.
struct GLBDocument {
  let json: [String: Any]
  let binary: UnsafeRawBufferPointer?

  /// A JSON array of objects, empty when absent.
  func list(_ key: String) -> [[String: Any]] { json[key] as? [[String: Any]] ?? [] }

  private static func integer(_ object: [String: Any], _ key: String) -> Int? {
    object[key] as? Int
  }

  /// Every mesh where the default scene's nodes place it, or each mesh once where the
  /// file has no scene.
  func mesh() throws(GLBError) -> TriangleMesh {
    var mesh = TriangleMesh()
    let meshes = list("meshes")
    let placed = placedMeshes() ?? meshes.indices.map { ($0, Transform3D.identity) }
    for (m, transform) in placed {
      guard meshes.indices.contains(m) else {
        throw .invalid("nodes", "mesh \(m) of \(meshes.count)")
      }
      let primitives = meshes[m]["primitives"] as? [[String: Any]] ?? []
      for (p, primitive) in primitives.enumerated() {
        try append(
          primitive, place: "meshes[\(m)].primitives[\(p)]", transform: transform, to: &mesh)
      }
    }
    return mesh
  }

  private func append(
    _ primitive: [String: Any], place: String, transform: Transform3D,
    to mesh: inout TriangleMesh
  ) throws(GLBError) {
    guard let attributes = primitive["attributes"] as? [String: Any],
      let positionIndex = attributes["POSITION"] as? Int
    else { throw .invalid(place, "no POSITION attribute") }
    let positions = try floats(positionIndex, components: 3, place: place + " POSITION")
    let count = positions.count / 3
    let first = mesh.positions.count
    let moves = transform != .identity
    for k in 0..<count {
      var p = Point3(positions[3 * k], positions[3 * k + 1], positions[3 * k + 2])
      if moves {
        let q = transform.apply(to: SIMD3(Double(p.x), Double(p.y), Double(p.z)))
        p = Point3(Float(q.x), Float(q.y), Float(q.z))
      }
      mesh.positions.append(p)
    }
    if let index = attributes["COLOR_0"] as? Int {
      let (values, components) = try colorValues(index, place: place + " COLOR_0")
      guard values.count / components == count else {
        throw .invalid(
          place, "COLOR_0 has \(values.count / components) values for \(count) vertices")
      }
      for k in 0..<count {
        func channel(_ c: Int) -> UInt8 {
          let value = values[k * components + c]
          // A float colour may be anything, NaN too: it counts as black.
          return value.isFinite ? UInt8(min(max(value, 0), 1) * 255 + 0.5) : 0
        }
        mesh.colors.append(RGB8(channel(0), channel(1), channel(2)))
      }
    } else {
      mesh.colors += Array(repeating: FramePoints.noColor, count: count)
    }
    if let index = attributes["NORMAL"] as? Int,
      mesh.normals.count == first
    {
      let normals = try floats(index, components: 3, place: place + " NORMAL")
      guard normals.count == positions.count else {
        throw .invalid(place, "NORMAL has \(normals.count / 3) values for \(count) vertices")
      }
      for k in 0..<count {
        var n = Point3(normals[3 * k], normals[3 * k + 1], normals[3 * k + 2])
        if moves {
          // Turned with the node's linear part and made unit again.
          let q = transform.rotate(SIMD3(Double(n.x), Double(n.y), Double(n.z)))
          let length = (q * q).sum().squareRoot()
          if length > 0 {
            n = Point3(Float(q.x / length), Float(q.y / length), Float(q.z / length))
          }
        }
        mesh.normals.append(n)
      }
    } else {
      mesh.normals = []
    }
    let mode = Self.integer(primitive, "mode") ?? 4
    guard mode == 4 else { return }
    let indices: [UInt32]
    if let index = primitive["indices"] as? Int {
      indices = try integers(index, place: place + " indices")
    } else {
      indices = (0..<UInt32(count)).map { $0 }
    }
    for t in Swift.stride(from: 0, to: indices.count - indices.count % 3, by: 3) {
      let triangle = SIMD3(indices[t], indices[t + 1], indices[t + 2])
      guard triangle.x < count, triangle.y < count, triangle.z < count else {
        throw .invalid(
          place, "index \(max(triangle.x, triangle.y, triangle.z)) of \(count) vertices")
      }
      mesh.triangles.append(triangle &+ UInt32(first))
    }
  }

  /// An accessor's bytes: each element's offset in the binary chunk, its component
  /// type and its number of components.
  private func elements(_ index: Int, place: String) throws(GLBError)
    -> (offsets: StrideTo<Int>, componentType: Int, components: Int, normalized: Bool)
  {
    let accessors = list("accessors")
    guard accessors.indices.contains(index) else {
      throw .invalid(place, "accessor \(index) of \(accessors.count)")
    }
    let accessor = accessors[index]
    guard let viewIndex = Self.integer(accessor, "bufferView"),
      list("bufferViews").indices.contains(viewIndex)
    else { throw .invalid(place, "accessor \(index) has no buffer view") }
    let view = list("bufferViews")[viewIndex]
    guard Self.integer(view, "buffer") == 0, list("buffers").first?["uri"] == nil,
      let binary
    else { throw .invalid(place, "data outside the file's binary chunk") }
    let componentType = Self.integer(accessor, "componentType") ?? 0
    let size: Int
    switch componentType {
    case 5120, 5121: size = 1
    case 5122, 5123: size = 2
    case 5125, 5126: size = 4
    default: throw .invalid(place, "component type \(componentType)")
    }
    let components: Int
    switch accessor["type"] as? String {
    case "SCALAR": components = 1
    case "VEC2": components = 2
    case "VEC3": components = 3
    case "VEC4": components = 4
    default: throw .invalid(place, "type \(accessor["type"] ?? "none")")
    }
    let count = Self.integer(accessor, "count") ?? -1
    let viewOffset = Self.integer(view, "byteOffset") ?? 0
    let viewLength = Self.integer(view, "byteLength") ?? -1
    let offset = Self.integer(accessor, "byteOffset") ?? 0
    let element = size * components
    let stride = Self.integer(view, "byteStride") ?? element
    // Each number is checked against the chunk's size before any arithmetic with it.
    let limit = binary.count
    guard count >= 0, count <= limit, viewOffset >= 0, viewLength >= 0,
      viewLength <= limit - min(viewOffset, limit), viewOffset <= limit, offset >= 0,
      offset <= viewLength, stride >= element, stride <= 255
    else { throw .invalid(place, "offsets or lengths outside the binary chunk") }
    if count > 0 {
      guard (count - 1) <= (viewLength - offset - element) / stride, viewLength - offset >= element
      else { throw .invalid(place, "\(count) elements do not fit buffer view \(viewIndex)") }
    }
    let start = viewOffset + offset
    return (
      Swift.stride(from: start, to: start + count * stride, by: stride), componentType,
      components, accessor["normalized"] as? Bool ?? false
    )
  }

  private func value(at offset: Int, type: Int, normalized: Bool) -> Float {
    guard let binary else { return 0 }
    switch type {
    case 5126:
      return Float(
        bitPattern: UInt32(
          littleEndian: binary.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    case 5121:
      let v = Float(binary[offset])
      return normalized ? v / 255 : v
    case 5123:
      let v = Float(
        UInt16(littleEndian: binary.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
      return normalized ? v / 65535 : v
    case 5125:
      return Float(
        UInt32(littleEndian: binary.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    case 5120:
      let v = Float(Int8(bitPattern: binary[offset]))
      return normalized ? max(v / 127, -1) : v
    default:
      let v = Float(
        Int16(littleEndian: binary.loadUnaligned(fromByteOffset: offset, as: Int16.self)))
      return normalized ? max(v / 32767, -1) : v
    }
  }

  private static func componentSize(_ type: Int) -> Int {
    type == 5126 || type == 5125 ? 4 : type == 5122 || type == 5123 ? 2 : 1
  }

  private func floats(_ index: Int, components: Int, place: String) throws(GLBError) -> [Float] {
    let e = try elements(index, place: place)
    guard e.components == components, e.componentType == 5126 else {
      throw .invalid(place, "not \(components) floats an element")
    }
    var values: [Float] = []
    for offset in e.offsets {
      for c in 0..<components {
        values.append(value(at: offset + 4 * c, type: 5126, normalized: false))
      }
    }
    return values
  }

  private func colorValues(_ index: Int, place: String) throws(GLBError)
    -> (values: [Float], components: Int)
  {
    let e = try elements(index, place: place)
    guard e.components == 3 || e.components == 4 else { throw .invalid(place, "not RGB or RGBA") }
    let size = Self.componentSize(e.componentType)
    var values: [Float] = []
    for offset in e.offsets {
      for c in 0..<e.components {
        values.append(value(at: offset + size * c, type: e.componentType, normalized: true))
      }
    }
    return (values, e.components)
  }

  private func integers(_ index: Int, place: String) throws(GLBError) -> [UInt32] {
    let e = try elements(index, place: place)
    guard e.components == 1, [5121, 5123, 5125].contains(e.componentType) else {
      throw .invalid(place, "indices are not unsigned integers")
    }
    guard let binary else { return [] }
    return e.offsets.map { offset in
      switch e.componentType {
      case 5121: UInt32(binary[offset])
      case 5123:
        UInt32(UInt16(littleEndian: binary.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
      default: UInt32(littleEndian: binary.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      }
    }
  }
}
