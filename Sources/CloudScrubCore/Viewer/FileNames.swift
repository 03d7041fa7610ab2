import Foundation

/// The files the viewer writes to: where "Export" writes the shown points, where
/// "Save poses" writes a refined trajectory, where "Export mesh" writes the model, and
/// where the Record section writes videos.
///
/// All start beside the open document (`NAME-export.ply`, `NAME-poses.txt`,
/// `NAME-mesh.ply`, `NAME.mp4`) when it opens (`ViewerCommand.documentOpened`) and then follow what
/// the user types, so the panels' text fields show this value and never keep a name of
/// their own.
public struct FileNames: Equatable, Sendable {
  /// Where the shown points are exported.
  public private(set) var exportPath: String
  /// Where an applied refinement's trajectory is saved (TUM).
  public private(set) var posesPath: String
  /// Where the fused mesh is written (PLY, OBJ or glTF by the extension).
  public private(set) var meshPath: String
  /// Where a video is written (MP4, WebM, Matroska, GIF or a folder, by the name).
  public private(set) var videoPath: String

  /// The names used before any document opens.
  public init(
    exportPath: String = "cloud.ply", posesPath: String = "poses.txt",
    meshPath: String = "mesh.ply", videoPath: String = "video.mp4"
  ) {
    self.exportPath = exportPath
    self.posesPath = posesPath
    self.meshPath = meshPath
    self.videoPath = videoPath
  }

  /// The names beside the document at `documentPath`.
  public init(documentPath: String) {
    exportPath = Self.defaultExportPath(for: documentPath)
    posesPath = Self.defaultPosesPath(for: documentPath)
    meshPath = Self.beside(documentPath, suffix: "-mesh.ply")
    videoPath = Self.beside(documentPath, suffix: ".mp4")
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
    case .setMeshPath(let path): meshPath = path
    case .setVideoPath(let path): videoPath = path
    }
  }
}

/// What the user typed into a file name's field.
public enum FileNamesCommand: Equatable, Sendable {
  case setExportPath(String)
  case setPosesPath(String)
  case setMeshPath(String)
  case setVideoPath(String)
}
