import CloudScrubCore

/// A point cloud opened from a file, with what `info` reports about its source.
struct LoadedInput {
  var path: String
  var header: PLYHeader
  var cloud: PointCloud
}

/// Opens the inputs the command line accepts.
enum InputLoader {
  /// Reads the PLY file at `path`, with progress on a terminal.
  ///
  /// - Throws: `FileError` naming what is wrong and the path.
  static func load(_ path: String) throws -> LoadedInput {
    let progress = Terminal.progress("reading \(path)")
    defer { progress?.finish() }
    let document = try PLYReader.read(path: path, progress: progress.handler)
    return LoadedInput(path: path, header: document.header, cloud: document.cloud)
  }
}
