import CloudScrubCore

/// Where each field of a point comes from among the vertex element's properties.
///
/// Names are matched as the common writers spell them: `red green blue` or
/// `diffuse_red…` or `r g b` for colour, `nx ny nz` or `normal_x…` for normals, `alpha`
/// kept as an attribute. Every other scalar property becomes an attribute under its own
/// name; list properties are read past.
struct PLYVertexLayout {
  /// Property indices of x, y, z; a missing z (a 2D file) reads as 0.
  var position: [Int?]
  /// Property indices of red, green, blue, when all three are present.
  var color: [Int]?
  /// Property indices of nx, ny, nz, when all three are present.
  var normal: [Int]?
  /// Property indices kept as attributes, in declaration order.
  var attributes: [Int]

  private static let colorNames = [
    ["red", "green", "blue"], ["diffuse_red", "diffuse_green", "diffuse_blue"], ["r", "g", "b"],
  ]
  private static let normalNames = [["nx", "ny", "nz"], ["normal_x", "normal_y", "normal_z"]]

  /// Resolves the layout of `element`.
  ///
  /// - Throws: `PLYError.missingProperty` when x or y is absent or is a list.
  init(element: PLYElement) throws(PLYError) {
    var scalarIndex: [String: Int] = [:]
    for (index, property) in element.properties.enumerated() {
      if case .scalar = property.kind, scalarIndex[property.name] == nil {
        scalarIndex[property.name] = index
      }
    }
    var position: [Int?] = []
    for name in ["x", "y"] {
      guard let index = scalarIndex[name] else {
        throw .missingProperty(name: name, element: element.name)
      }
      position.append(index)
    }
    position.append(scalarIndex["z"])
    self.position = position
    color =
      Self.colorNames.lazy.compactMap { names in
        let found = names.compactMap { scalarIndex[$0] }
        return found.count == 3 ? found : nil
      }.first
    normal =
      Self.normalNames.lazy.compactMap { names in
        let found = names.compactMap { scalarIndex[$0] }
        return found.count == 3 ? found : nil
      }.first
    let used = Set(position.compactMap { $0 } + (color ?? []) + (normal ?? []))
    attributes = element.properties.indices.filter { index in
      guard case .scalar = element.properties[index].kind else { return false }
      return !used.contains(index) && scalarIndex[element.properties[index].name] == index
    }
  }

  /// The attribute name a property is kept under (`diffuse_alpha` becomes `alpha`).
  static func attributeName(for propertyName: String) -> String {
    propertyName == "diffuse_alpha" ? "alpha" : propertyName
  }
}

// MARK: - Colour conversion

/// Converts a colour channel of any PLY scalar type to 8 bits: integers are clamped to
/// 0…255 except 16-bit unsigned, which is scaled from 0…65535; floating point is taken
/// as 0…1.
@inline(__always)
func colorByte(fromDouble value: Double, type: ScalarType) -> UInt8 {
  switch type {
  case .float32, .float64:
    guard value.isFinite else { return value > 0 ? 255 : 0 }
    return UInt8(min(max((value * 255).rounded(), 0), 255))
  case .uint16:
    return UInt8(min(max((value / 257).rounded(), 0), 255))
  default:
    return UInt8(min(max(value, 0), 255))
  }
}
