import Foundation

extension Process {
  /// Starts the process with no signal blocked.
  ///
  /// A child inherits the signal mask of the thread that starts it, and the threads
  /// that run tests block nearly every signal. Started with `run()` from a test, Xvfb
  /// and the viewer would ignore SIGTERM, so that `stop()` waited out its grace and
  /// killed them, leaving an X server's lock and socket behind, and every window test
  /// slower by the grace twice over. The calling thread's mask is cleared while the
  /// child is spawned (Foundation spawns on the calling thread) and restored after.
  public func runWithSignalsUnblocked() throws {
    var none = sigset_t()
    var saved = sigset_t()
    sigemptyset(&none)
    pthread_sigmask(SIG_SETMASK, &none, &saved)
    defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
    try run()
  }

  /// Sends SIGTERM, waits up to `grace` seconds, then SIGKILL, and waits for the exit.
  /// Does nothing when the process is not running.
  public func stop(grace: TimeInterval = 5) {
    guard isRunning else { return }
    terminate()
    let deadline = Date().addingTimeInterval(grace)
    while isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if isRunning { kill(processIdentifier, SIGKILL) }
    waitUntilExit()
  }
}
