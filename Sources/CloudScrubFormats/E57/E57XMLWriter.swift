import CloudScrubCore
import Foundation

/// The XML section the writer emits, in libE57Format's layout: the root's identity,
/// one `data3D` child per scan (guid, name, description, pose, bounds, colour limits,
/// points), an empty `images2D`, and the `cloudscrub:provenance` extension. The
/// `cloudscrub` namespace also holds the points' attribute fields; the `nor`
/// namespace (libE57's normals extension) is declared when a scan has normals.
struct E57XMLWriter {
  static let extensionNamespace = "urn:cloudscrub:e57:1.0"

  /// One scan as the XML describes it.
  struct ScanEntry {
    var guid: String
    var name: String
    var worldFromScan: (rotation: SIMD4<Double>, translation: SIMD3<Double>)
    var bounds: Bounds3?
    var fields: E57PointFields
    var hasColor: Bool { fields.hasColor }
    var sectionPhysicalOffset: UInt64
    var recordCount: Int
  }

  var guid: String
  var provenance: E57Provenance
  var scans: [ScanEntry]

  /// The XML text, UTF-8.
  var bytes: [UInt8] {
    var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    x += "<e57Root type=\"Structure\" xmlns=\"http://www.astm.org/COMMIT/E57/2010-e57-v1.0\""
    x += " xmlns:cloudscrub=\"\(Self.extensionNamespace)\""
    if scans.contains(where: \.fields.hasNormals) {
      x += " xmlns:nor=\"\(E57PointFields.normalsNamespace)\""
    }
    x += ">\n"
    x += "  " + string("formatName", "ASTM E57 3D Imaging Data File") + "\n"
    x += "  " + string("guid", guid) + "\n"
    x += "  <versionMajor type=\"Integer\">1</versionMajor>\n"
    x += "  <versionMinor type=\"Integer\">0</versionMinor>\n"
    x += "  " + string("e57LibraryVersion", provenance.software) + "\n"
    x += "  " + string("coordinateMetadata", "") + "\n"
    x += "  <data3D type=\"Vector\" allowHeterogeneousChildren=\"1\">\n"
    for scan in scans { x += scanXML(scan) }
    x += "  </data3D>\n"
    x += "  <images2D type=\"Vector\" allowHeterogeneousChildren=\"1\"/>\n"
    x += "  <cloudscrub:provenance type=\"Vector\" allowHeterogeneousChildren=\"0\">\n"
    for entry in provenance.entries {
      x += "    <vectorChild type=\"Structure\">\n"
      x += "      " + string("cloudscrub:name", entry.name) + "\n"
      x += "      " + string("cloudscrub:value", entry.value) + "\n"
      x += "    </vectorChild>\n"
    }
    x += "  </cloudscrub:provenance>\n"
    x += "</e57Root>\n"
    return Array(x.utf8)
  }

  private func scanXML(_ scan: ScanEntry) -> String {
    var x = "    <vectorChild type=\"Structure\">\n"
    x += "      " + string("guid", scan.guid) + "\n"
    x += "      " + string("name", scan.name) + "\n"
    x += "      " + string("description", provenance.description) + "\n"
    let q = scan.worldFromScan.rotation
    let t = scan.worldFromScan.translation
    x += "      <pose type=\"Structure\">\n"
    x += "        <rotation type=\"Structure\">"
    x += float("w", q.w) + float("x", q.x) + float("y", q.y) + float("z", q.z)
    x += "</rotation>\n"
    x += "        <translation type=\"Structure\">"
    x += float("x", t.x) + float("y", t.y) + float("z", t.z) + "</translation>\n"
    x += "      </pose>\n"
    if let bounds = scan.bounds {
      x += "      <cartesianBounds type=\"Structure\">"
      x += float("xMinimum", Double(bounds.min.x)) + float("xMaximum", Double(bounds.max.x))
      x += float("yMinimum", Double(bounds.min.y)) + float("yMaximum", Double(bounds.max.y))
      x += float("zMinimum", Double(bounds.min.z)) + float("zMaximum", Double(bounds.max.z))
      x += "</cartesianBounds>\n"
    }
    if scan.hasColor {
      x += "      <colorLimits type=\"Structure\">"
      for channel in ["Red", "Green", "Blue"] {
        x += "<color\(channel)Minimum type=\"Integer\">0</color\(channel)Minimum>"
        x += "<color\(channel)Maximum type=\"Integer\">255</color\(channel)Maximum>"
      }
      x += "</colorLimits>\n"
    }
    x += "      <points type=\"CompressedVector\" fileOffset=\"\(scan.sectionPhysicalOffset)\""
    x += " recordCount=\"\(scan.recordCount)\">\n"
    x += "        <prototype type=\"Structure\">\n"
    x += scan.fields.prototypeXML(indent: "          ")
    x += "        </prototype>\n"
    x += "        <codecs type=\"Vector\" allowHeterogeneousChildren=\"1\"/>\n"
    x += "      </points>\n"
    x += "    </vectorChild>\n"
    return x
  }

  /// A String element; its text in CDATA, a "]]>" inside split across two sections.
  private func string(_ name: String, _ value: String) -> String {
    let escaped = value.replacingOccurrences(of: "]]>", with: "]]]]><![CDATA[>")
    return "<\(name) type=\"String\"><![CDATA[\(escaped)]]></\(name)>"
  }

  private func float(_ name: String, _ value: Double) -> String {
    "<\(name) type=\"Float\">\(value)</\(name)>"
  }
}
