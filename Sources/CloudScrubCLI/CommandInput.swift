import CloudScrubCore
import CloudScrubSession

/// A command's input, opened the one way every command and the window open a path
/// (`InputLoader.open`), its notes printed on standard error.
enum CommandInput {
  /// Opens `path` as `choices` say (reading no point) and prints the notes.
  ///
  /// - Parameter applying: the recording options given that apply to a point-cloud
  ///   file too (no note says they are ignored).
  /// - Throws: an error naming what is wrong and the path.
  static func opened(
    _ path: String, choices: LoadChoices = LoadChoices(), applying: Set<String> = []
  ) throws -> OpenedInput {
    let opened = try InputLoader.open(path, choices: choices, applying: applying)
    for note in opened.notes { Terminal.error("note: " + note) }
    return opened
  }

  /// Opens `path` as `choices` say, and reads a point-cloud file whole (with a progress
  /// line on a terminal); a recording's frames are left for the command to load.
  ///
  /// - Throws: an error naming what is wrong and the path.
  static func open(_ path: String, choices: LoadChoices = LoadChoices()) throws -> Input {
    let opened = try opened(path, choices: choices)
    guard let source = opened.recording else {
      return .cloud(try InputLoader.loadCloud(opened.path))
    }
    return .recording(path: opened.path, source: source)
  }

  /// Opens the recording at `path`, under the trajectory `poses` when given.
  ///
  /// - Parameter needs: what the command needs a recording for, for the error a
  ///   point-cloud file gets ("refine needs a recording").
  /// - Throws: `UsageError` for a point-cloud file, naming `needs`; an error naming
  ///   what is wrong with the recording.
  static func recording(_ path: String, poses: String?, needs: String) throws
    -> (path: String, source: any RecordingSource)
  {
    let opened = try opened(path, choices: LoadChoices(posesPath: poses))
    guard let source = opened.recording else {
      throw UsageError("\(needs), not a point cloud: \(path)")
    }
    return (opened.path, source)
  }
}
