import Foundation

/// The files the viewer writes to: where "Export" writes the shown points and where
/// "Save poses" writes a refined trajectory.
///
/// Both start beside the open document (`NAME-export.ply`, `NAME-poses.txt`) when it
/// opens (`ViewerCommand.documentOpened`) and then follow what the user types, so the
/// panels' text fields show this value and never keep a name of their own.
public struct FileNames: Equatable, Sendable {
  /// Where the shown points are exported.
  public private(set) var exportPath: String
  /// Where an applied refinement's trajectory is saved (TUM).
  public private(set) var posesPath: String

  /// The names used before any document opens.
  public init(exportPath: String = "cloud.ply", posesPath: String = "poses.txt") {
    self.exportPath = exportPath
    self.posesPath = posesPath
  }

  /// The names beside the document at `documentPath`.
  public init(documentPath: String) {
    exportPath = Self.defaultExportPath(for: documentPath)
    posesPath = Self.defaultPosesPath(for: documentPath)
  }

  /// The default export path beside `input`: `NAME-export.ply`.
  public static func defaultExportPath(for input: String) -> String {
    beside(input, suffix: "-export.ply")
  }

  /// The default trajectory path beside `input`: `NAME-poses.txt`.
  public static func defaultPosesPath(for input: String) -> String {
    beside(input, suffix: "-poses.txt")
  }

  private static func beside(_ input: String, suffix: String) -> String {
    let url = URL(fileURLWithPath: input)
    let base = url.deletingPathExtension().lastPathComponent
    return url.deletingLastPathComponent().appendingPathComponent(base + suffix).path
  }

  /// Applies one command; the only way the names change.
  public mutating func apply(_ command: FileNamesCommand) {
    switch command {
    case .setExportPath(let path): exportPath = path
    case .setPosesPath(let path): posesPath = path
    }
  }
}

/// What the user typed into a file name's field.
public enum FileNamesCommand: Equatable, Sendable {
  case setExportPath(String)
  case setPosesPath(String)
}
