import Foundation

/// Timestamps of the steps between a process's start and its first picture, printed to
/// standard error when the environment sets `CLOUDSCRUB_TRACE_STARTUP=1` (a profiling
/// aid: what the window does before a huge file's first picture that it does not do
/// for a tiny one). Without it, `mark` does nothing but read one flag.
public enum StartupTrace {
  /// Whether the environment asks for the trace.
  public static let isEnabled =
    ProcessInfo.processInfo.environment["CLOUDSCRUB_TRACE_STARTUP"] == "1"
  private static let origin = Date()

  /// Prints `step` with the seconds since the trace's first use (its first `mark`, which
  /// the window makes as it starts), from any thread.
  public static func mark(_ step: @autoclosure () -> String) {
    guard isEnabled else { return }
    let seconds = Date().timeIntervalSince(origin)
    FileHandle.standardError.write(
      Data(String(format: "trace %8.3f s  %@\n", seconds, step()).utf8))
  }
}
