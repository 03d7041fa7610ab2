import CloudScrubCore
import CloudScrubFormats
import Foundation

/// `info` of a LAS or LAZ file from its header and VLRs alone (`--read header`, or a
/// file of more than `InfoCommand.pointsReadAtMost` points): the count and bounds the
/// header states and the fields its point format and extra-bytes record declare, with
/// no point read, so a 600 MB COPC file is described in a moment.
struct LASHeaderInfo {
  var path: String
  var summary: LASReader.Summary

  private var header: LASReader.Header { summary.header }

  /// The header's bounds, nil when they are not finite or min exceeds max.
  private var bounds: (min: SIMD3<Double>, max: SIMD3<Double>)? {
    let (low, high) = summary.bounds
    let finite = (0..<3).allSatisfy { low[$0].isFinite && high[$0].isFinite }
    return finite && all(low .<= high) ? (low, high) : nil
  }

  private var comments: [String] {
    LASFileFormat.provenanceLines(of: header) + summary.notes
  }

  /// `value` with as many decimals as the axis's scale has (0.001: three), so the
  /// header's doubles read as the file's coordinates do.
  private func decimal(_ value: Double, axis: Int) -> String {
    let scale = abs(header.scale[axis])
    let digits = scale > 0 && scale < 1 ? min(Int((-log10(scale)).rounded(.up)), 9) : 0
    return String(format: "%.\(digits)f", value)
  }

  var text: String {
    let count = header.compressed ? "the header's count" : "the complete records the header's count"
    var rows: [(String, String)] = [
      ("format", LASFileFormat.format(of: header)),
      ("points", "\(header.points) (\(count); not read: --read points reads them)"),
    ]
    if let (low, high) = bounds {
      let triple = { (v: SIMD3<Double>) in
        (0..<3).map { decimal(v[$0], axis: $0) }.joined(separator: ", ")
      }
      rows.append(("bounds", "min (\(triple(low)))  max (\(triple(high))) (the header's)"))
      rows.append(
        ("size", (0..<3).map { decimal(high[$0] - low[$0], axis: $0) }.joined(separator: " × ")))
    } else {
      rows.append(("bounds", "none stated (the header's are not finite or min exceeds max)"))
    }
    rows.append(
      (
        "fields",
        InfoTable.fields(summary.shape).joined(separator: ", ")
          + " (as the point format and its extra-bytes record declare them)"
      ))
    if summary.shape.attribute(named: "frame") != nil {
      rows.append(("timeline", "the points carry 'frame': --read points counts their frames"))
    }
    for (index, comment) in comments.enumerated() {
      rows.append((index == 0 ? "comments" : "", comment))
    }
    return InfoTable.table(path, rows)
  }

  var json: JSON {
    let bounds: JSON =
      self.bounds.map { low, high in
        .object([
          ("min", .array([.double(low.x), .double(low.y), .double(low.z)])),
          ("max", .array([.double(high.x), .double(high.y), .double(high.z)])),
        ])
      } ?? .null
    return .object([
      ("path", .string(path)),
      ("format", .string(LASFileFormat.format(of: header))),
      ("points", .int(header.points)),
      ("points_read", .bool(false)),
      ("bounds", bounds),
      ("fields", .array(InfoTable.fields(summary.shape).map(JSON.string))),
      (
        "attributes",
        .array(
          summary.shape.attributes.map {
            .object([("name", .string($0.name)), ("type", .string($0.values.scalarType.plyName))])
          })
      ),
      ("comments", .array(comments.map(JSON.string))),
    ])
  }
}
