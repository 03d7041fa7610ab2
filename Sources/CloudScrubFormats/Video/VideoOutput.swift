import CloudScrubCore
import Foundation

/// Where `cloudscrub video` and the window's recorder write: a video file (MP4, WebM,
/// Matroska, GIF, by extension) or a folder of numbered PNG pictures.
public enum VideoOutput {
  /// Whether `path` names a folder of pictures: it ends in `/`, or is a folder already.
  public static func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return path.hasSuffix("/")
      || (FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        && isDirectory.boolValue)
  }

  /// What `path` will hold, for messages: "H.264 MP4", "PNG pictures"…
  public static func kind(of path: String) -> String? {
    if isFolder(path) { return "PNG pictures" }
    switch VideoFormat(path: path) {
    case .mp4: return "H.264 MP4"
    case .webm: return "VP9 WebM"
    case .mkv: return "lossless FFV1 Matroska"
    case .gif: return "GIF"
    case nil: return nil
    }
  }

  /// Opens a sink for frames of `width` × `height` at `framesPerSecond`.
  ///
  /// - Parameter inputs: files the video is made from, never written over.
  /// - Throws: `VideoError` for a name whose extension is no video format,
  ///   `FileError` when the file or folder cannot be written, `VideoError` when FFmpeg
  ///   cannot encode.
  public static func open(
    _ path: String, width: Int, height: Int, framesPerSecond: Int, protecting inputs: [String] = []
  ) throws -> any VideoFrameSink {
    if isFolder(path) { return try PNGFrameFolder(path: path) }
    guard let format = VideoFormat(path: path) else {
      throw VideoError(.unknownFormat, path: path)
    }
    return try VideoFileSink(
      path: path, width: width, height: height, framesPerSecond: framesPerSecond,
      format: format, protecting: inputs)
  }
}

/// A video file written under a temporary name and renamed into place once complete.
final class VideoFileSink: VideoFrameSink {
  private let file: AtomicFileWriter
  private var encoder: VideoEncoder?

  init(
    path: String, width: Int, height: Int, framesPerSecond: Int, format: VideoFormat,
    protecting inputs: [String]
  ) throws {
    file = try AtomicFileWriter(path: path, protecting: inputs)
    // FFmpeg writes the temporary file by name (the MP4 muxer seeks back to finish it);
    // the writer renames it into place, or removes it.
    do {
      encoder = try VideoEncoder(
        path: file.temporaryPath, width: width, height: height,
        framesPerSecond: framesPerSecond, format: format)
    } catch {
      file.abandon()
      throw Self.renamed(error, path: path)
    }
  }

  func append(_ image: RGBImage) throws {
    guard let encoder else { return }
    do { try encoder.append(image) } catch { throw Self.renamed(error, path: file.path) }
  }

  func finish() throws {
    guard let encoder else { return }
    do { try encoder.finish() } catch {
      abandon()
      throw Self.renamed(error, path: file.path)
    }
    self.encoder = nil
    try file.commit()
  }

  func abandon() {
    encoder = nil
    file.abandon()
  }

  /// An encoder's error names the temporary file; the user knows the target.
  private static func renamed(_ error: any Error, path: String) -> any Error {
    guard let failure = error as? VideoError else { return error }
    return VideoError(failure.reason, path: path)
  }
}

/// A folder of pictures `frame-00000.png`, `frame-00001.png`…, each written whole
/// (under a temporary name, renamed into place), so an interrupted video leaves only
/// complete pictures.
final class PNGFrameFolder: VideoFrameSink {
  let path: String
  private var written = 0

  init(path: String) throws {
    self.path = path.hasSuffix("/") ? String(path.dropLast()) : path
    do {
      try FileManager.default.createDirectory(
        atPath: self.path, withIntermediateDirectories: true)
    } catch {
      throw FileError(.cannotWrite("cannot make the folder"), path: path)
    }
  }

  static func name(ofFrame index: Int) -> String {
    "frame-" + String(repeating: "0", count: max(0, 5 - String(index).count)) + String(index)
      + ".png"
  }

  func append(_ image: RGBImage) throws {
    try PNGCodec.write(image, to: path + "/" + Self.name(ofFrame: written))
    written += 1
  }

  func finish() throws {}

  /// Removes the pictures this video wrote.
  func abandon() {
    for index in 0..<written {
      unlink(path + "/" + Self.name(ofFrame: index))
    }
    written = 0
  }
}
