import CloudScrubCore
import CloudScrubFormats

/// How `info` lays out what it says of a file: a path, then rows of name and value.
enum InfoTable {
  /// `path`, then the rows indented, their values lined up.
  static func table(_ path: String, _ rows: [(String, String)]) -> String {
    let width = rows.map(\.0.count).max() ?? 0
    let lines = rows.map {
      "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1
    }
    return ([path] + lines).joined(separator: "\n")
  }

  /// The frames of a cloud whose points carry a `frame` attribute (see `CloudTimeline`).
  static func timeline(_ cloud: PointCloud) -> (frames: Int, first: Int, last: Int)? {
    guard let values = CloudTimeline.frameValues(of: cloud), let first = values.min(),
      let last = values.max()
    else { return nil }
    return (Set(values).count, first, last)
  }

  /// What each point carries: position, colour, normal, then attributes by name and type.
  static func fields(_ cloud: PointCloud) -> [String] {
    ["position"] + (cloud.colors == nil ? [] : ["color"]) + (cloud.normals == nil ? [] : ["normal"])
      + cloud.attributes.map { "\($0.name) (\($0.values.scalarType.plyName))" }
  }
}
