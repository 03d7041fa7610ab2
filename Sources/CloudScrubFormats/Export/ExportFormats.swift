import CloudScrubCore
import Foundation

/// What an export cannot do with the format it was asked for.
public enum ExportFormatError: Error, Equatable, CustomStringConvertible, Sendable {
  /// The output's extension names no format CloudScrub writes.
  case unknownExtension(output: String, known: [String])
  /// `--format` names no format CloudScrub writes.
  case unknownFormat(name: String, known: [String])
  /// `--ascii` for a format that has no text form.
  case noTextForm(format: String)

  public var description: String {
    switch self {
    case .unknownExtension(let output, let known):
      let ext = (output as NSString).pathExtension
      return (ext.isEmpty ? "\(output) has no extension" : "unknown output extension '.\(ext)'")
        + "; CloudScrub writes " + known.map { "." + $0 }.joined(separator: " ")
        + " (or name one with --format)"
    case .unknownFormat(let name, let known):
      return "unknown format '\(name)'; CloudScrub writes " + known.joined(separator: ", ")
    case .noTextForm(let format):
      return "--ascii does not apply to \(format), which has no text form (PLY and PCD do)"
    }
  }
}

/// Every point-cloud format CloudScrub writes, like `InputDetector.formats` for
/// reading: the output's extension or `--format` picks one.
public enum ExportFormats {
  /// The writers, in the order `--help` lists them.
  public static let writers: [any CloudFormatWriter] = [
    PLYFormatWriter(), PCDFormatWriter(), LASFormatWriter(), LAZFormatWriter(), E57FormatWriter(),
    XYZFormatWriter(), XYZFormatWriter(csv: true), COPCFormatWriter(),
  ]

  /// Every extension written, in order.
  public static var extensions: [String] { writers.flatMap(\.extensions) }

  /// The writer for `output`: the one named `format` when given, else the one whose
  /// extension `output` has (case-insensitive).
  ///
  /// - Throws: `ExportFormatError` naming what is known.
  public static func writer(for output: String, format: String? = nil) throws
    -> any CloudFormatWriter
  {
    if let format {
      let name = format.lowercased()
      guard let writer = writers.first(where: { $0.name == name || $0.extensions.contains(name) })
      else { throw ExportFormatError.unknownFormat(name: format, known: writers.map(\.name)) }
      return writer
    }
    // A two-part extension (`.copc.laz`) wins over its last part.
    let name = (output as NSString).lastPathComponent.lowercased()
    if let writer = writers.first(where: {
      $0.extensions.contains { $0.contains(".") && name.hasSuffix("." + $0) }
    }) {
      return writer
    }
    let ext = (output as NSString).pathExtension.lowercased()
    guard let writer = writers.first(where: { $0.extensions.contains(ext) }) else {
      throw ExportFormatError.unknownExtension(output: output, known: extensions)
    }
    return writer
  }
}
