import Foundation

/// A stop for the files written inside a scope: every `AtomicFileWriter` write (a
/// chunk of about a megabyte, whatever the format) and its `commit()` first ask the
/// stop of the scope they run in, and once it says to stop they throw
/// `CleaningCancelled(step: "writing")`; the writer's error path then removes the
/// temporary file, so the target stays byte for byte as it was.
///
/// The scope belongs to the calling thread (a POSIX thread-specific value; Swift's
/// `TaskLocal` outside a task crashes in this toolchain's runtime): the writers need no
/// parameter of their own, and a write on another thread, or outside the scope, is
/// never stopped by it. The export library sets it around its write
/// (`CloudExport.finish`); the command line's Ctrl-C removes temporary files its own
/// way (`TemporaryFiles`).
public enum WriteCancellation {
  /// The scope's stop, boxed for the thread-specific slot.
  private final class Scope {
    let stop: StopCheck?
    init(_ stop: StopCheck?) { self.stop = stop }
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Runs `body` with `stop` asked before each write of every `AtomicFileWriter` in it
  /// on this thread (a nil `stop` lifts an enclosing scope's).
  ///
  /// - Throws: what `body` throws; `CleaningCancelled(step: "writing")` from a write
  ///   once `stop` says to stop.
  public static func stopping<R>(when stop: StopCheck?, _ body: () throws -> R) rethrows -> R {
    let previous = pthread_getspecific(key)
    let scope = Unmanaged.passRetained(Scope(stop))
    pthread_setspecific(key, scope.toOpaque())
    defer {
      pthread_setspecific(key, previous)
      scope.release()
    }
    return try body()
  }

  /// Throws once this thread's scope says to stop; nothing outside a scope.
  ///
  /// - Throws: `CleaningCancelled(step: "writing")`.
  static func check() throws(CleaningCancelled) {
    guard let raw = pthread_getspecific(key) else { return }
    let scope = Unmanaged<Scope>.fromOpaque(raw).takeUnretainedValue()
    if let stop = scope.stop, stop() { throw CleaningCancelled(step: "writing") }
  }
}
