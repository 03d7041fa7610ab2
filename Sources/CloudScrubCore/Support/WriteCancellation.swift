/// A stop for the files written inside a scope: every `AtomicFileWriter` write (a
/// chunk of about a megabyte, whatever the format) and its `commit()` first ask the
/// stop of the scope they run in, and once it says to stop they throw
/// `CleaningCancelled(step: "writing")`; the writer's error path then removes the
/// temporary file, so the target stays byte for byte as it was.
///
/// The scope is a task-local value, which outside Swift tasks is bound to the calling
/// thread: the writers need no parameter of their own, and a write on another thread
/// (or outside the scope) is never stopped by it. The export library sets it around
/// its write (`CloudExport.finish`); the command line's Ctrl-C removes temporary files
/// its own way (`TemporaryFiles`).
public enum WriteCancellation {
  @TaskLocal private static var stop: StopCheck?

  /// Runs `body` with `stop` asked before each write of every `AtomicFileWriter` in it.
  ///
  /// - Throws: what `body` throws; `CleaningCancelled(step: "writing")` from a write
  ///   once `stop` says to stop.
  public static func stopping<R>(when stop: StopCheck?, _ body: () throws -> R) rethrows -> R {
    try $stop.withValue(stop) { try body() }
  }

  /// Throws once the scope's stop says to stop; nothing outside a scope.
  ///
  /// - Throws: `CleaningCancelled(step: "writing")`.
  static func check() throws(CleaningCancelled) {
    if let stop, stop() { throw CleaningCancelled(step: "writing") }
  }
}
