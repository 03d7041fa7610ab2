import CloudScrubCore

/// What the XML says about one scan of `data3D`: its name, pose, and where and how its
/// points are stored.
struct E57ScanLayout: Sendable {
  var index: Int
  var name: String
  var guid: String
  /// The scan's pose: its points' coordinates in the file's world.
  var worldFromScan: Transform3D
  /// Physical offset of the points' compressed-vector section.
  var sectionPhysicalOffset: UInt64
  var recordCount: UInt64
  var fields: [E57Field]
  /// The range of colour values that maps to 0...255, per channel (from `colorLimits`,
  /// else the colour fields' own bounds).
  var colorLimits: [ClosedRange<Double>]
  /// The prefix (with its colon) of the normals extension's fields, as the root
  /// declares its namespace (`nor:` when it does not).
  var normalsPrefix = "nor:"
  /// The prefix of CloudScrub's attribute fields (`cloudscrub:` when undeclared).
  var attributePrefix = "cloudscrub:"

  /// Bits one record takes across every byte stream.
  var bitsPerRecord: Int { fields.reduce(0) { $0 + $1.encoding.bitsPerRecord } }

  func fieldIndex(_ name: String) -> Int? { fields.firstIndex { $0.name == name } }

  /// The scans of an E57 root element, in file order.
  ///
  /// - Throws: `E57ErrorReason.missingElement` or `.badElement` naming the element.
  static func scans(of root: E57XMLElement) throws(E57ErrorReason) -> [E57ScanLayout] {
    guard root.name == "e57Root" else {
      throw .badElement(path: "/" + root.name, message: "the root element is not e57Root")
    }
    guard let data3D = root.child("data3D") else { return [] }
    let normals = prefix(declaring: E57PointFields.normalsNamespace, in: root) ?? "nor:"
    let attributes = prefix(declaring: E57XMLWriter.extensionNamespace, in: root) ?? "cloudscrub:"
    return try data3D.children.enumerated().map { (index, scan) throws(E57ErrorReason) in
      var layout = try layout(of: scan, index: index)
      layout.normalsPrefix = normals
      layout.attributePrefix = attributes
      return layout
    }
  }

  /// The prefix ("nor:") that the root's `xmlns:PREFIX` attributes bind to `namespace`,
  /// the first in name order; nil when none does.
  private static func prefix(declaring namespace: String, in root: E57XMLElement) -> String? {
    root.attributes.keys.sorted().first { key in
      key.hasPrefix("xmlns:") && root.attributes[key].map { String($0.e57Trimmed) } == namespace
    }.map { String($0.dropFirst("xmlns:".count)) + ":" }
  }

  private static func layout(of scan: E57XMLElement, index: Int) throws(E57ErrorReason)
    -> E57ScanLayout
  {
    let path = "/e57Root/data3D/\(index)"
    guard let points = scan.child("points") else { throw .missingElement(path: path + "/points") }
    guard points.type == "CompressedVector" else {
      throw .badElement(path: path + "/points", message: "is not a CompressedVector")
    }
    let offset = try unsigned(points, "fileOffset", path: path + "/points")
    let count = try unsigned(points, "recordCount", path: path + "/points")
    guard let prototype = points.child("prototype") else {
      throw .missingElement(path: path + "/points/prototype")
    }
    let fields = try E57Field.fields(of: prototype, path: path + "/points/prototype")
    let limits = try colorLimits(scan.child("colorLimits"), fields: fields, path: path)
    return E57ScanLayout(
      index: index, name: scan.child("name")?.text ?? "", guid: scan.child("guid")?.text ?? "",
      worldFromScan: try pose(scan.child("pose"), path: path + "/pose"),
      sectionPhysicalOffset: offset, recordCount: count, fields: fields, colorLimits: limits)
  }

  private static func pose(_ pose: E57XMLElement?, path: String) throws(E57ErrorReason)
    -> Transform3D
  {
    guard let pose else { return .identity }
    var quaternion = SIMD4<Double>(0, 0, 0, 1)
    if let rotation = pose.child("rotation") {
      let w = try number(rotation.child("w"), default: 1, path: path + "/rotation/w")
      let x = try number(rotation.child("x"), default: 0, path: path + "/rotation/x")
      let y = try number(rotation.child("y"), default: 0, path: path + "/rotation/y")
      let z = try number(rotation.child("z"), default: 0, path: path + "/rotation/z")
      quaternion = SIMD4(x, y, z, w)
      guard Transform3D.isRotation(quaternion: quaternion) else {
        throw .badElement(path: path + "/rotation", message: "is no rotation: zero or infinite")
      }
    }
    var translation = SIMD3<Double>(0, 0, 0)
    if let t = pose.child("translation") {
      translation = SIMD3(
        try number(t.child("x"), default: 0, path: path + "/translation/x"),
        try number(t.child("y"), default: 0, path: path + "/translation/y"),
        try number(t.child("z"), default: 0, path: path + "/translation/z"))
    }
    return Transform3D(quaternion: quaternion, translation: translation)
  }

  private static func colorLimits(
    _ limits: E57XMLElement?, fields: [E57Field], path: String
  ) throws(E57ErrorReason) -> [ClosedRange<Double>] {
    var out: [ClosedRange<Double>] = []
    for channel in ["Red", "Green", "Blue"] {
      var low = 0.0
      var high = 255.0
      if let field = fields.first(where: { $0.name == "color" + channel }),
        case .integer(let minimum, let maximum) = field.encoding
      {
        low = Double(minimum)
        high = Double(maximum)
      }
      if let limits {
        let where_ = path + "/colorLimits/color" + channel
        low = try number(
          limits.child("color\(channel)Minimum"), default: low, path: where_ + "Minimum")
        high = try number(
          limits.child("color\(channel)Maximum"), default: high, path: where_ + "Maximum")
      }
      guard low < high else {
        throw .badElement(
          path: path + "/colorLimits", message: "color\(channel) range \(low)...\(high) is empty")
      }
      out.append(low...high)
    }
    return out
  }

  /// An Integer, ScaledInteger or Float element's value; an empty element is 0, as
  /// libE57Format writes zeros.
  static func number(_ element: E57XMLElement?, default fallback: Double, path: String)
    throws(E57ErrorReason) -> Double
  {
    guard let element else { return fallback }
    let text = element.text.e57Trimmed
    if text.isEmpty { return 0 }
    guard var value = Double(text), value.isFinite else {
      throw .badElement(path: path, message: "'\(text)' is not a finite number")
    }
    if element.type == "ScaledInteger" {
      let scale =
        Double(element.attributes["scale"].map { String($0.e57Trimmed) } ?? "1") ?? 1
      let offset =
        Double(element.attributes["offset"].map { String($0.e57Trimmed) } ?? "0") ?? 0
      value = value * scale + offset
    }
    return value
  }

  private static func unsigned(_ element: E57XMLElement, _ name: String, path: String)
    throws(E57ErrorReason) -> UInt64
  {
    guard let text = element.attributes[name] else {
      throw .badElement(path: path, message: "has no \(name) attribute")
    }
    guard let value = UInt64(text.e57Trimmed) else {
      throw .badElement(path: path, message: "\(name) '\(text)' is not a non-negative integer")
    }
    return value
  }
}
