import Foundation

/// A child process run to its end and timed: started with `posix_spawn` and waited for
/// with a blocking `wait4`, so its wall time has no polling interval in it (Foundation's
/// `Process.waitUntilExit` looks every 50 ms, which is a tenth of a short render).
enum BenchProcess {
  /// What the child took.
  struct Run {
    var seconds: Double
    var peakBytes: Int
    var cpuSeconds: Double
    /// Its standard error, when asked to keep it.
    var errors = ""
  }

  /// Where the child's standard error goes.
  enum Errors {
    /// To this process's.
    case shown
    case discarded
    /// Into `Run.errors`.
    case kept
  }

  /// Runs `argv` (the program's path, then its arguments) with this process's
  /// environment plus `environment`, its standard output discarded.
  ///
  /// - Throws: `BenchError` when it cannot start or exits other than with status 0.
  static func run(
    _ argv: [String], environment: [String: String] = [:], errors: Errors = .shown
  ) throws -> Run {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let errorsPath =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("cloudscrub-bench-errors-\(getpid())").path
    switch errors {
    case .shown: break
    case .discarded: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    case .kept:
      posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    defer { if errors == .kept { unlink(errorsPath) } }
    let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let cArguments = argv.map { strdup($0) } + [nil]
    let cEnvironment = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for text in cArguments + cEnvironment { free(text) } }
    var pid: pid_t = 0
    let started = Date()
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
    guard spawned == 0 else {
      throw BenchError("cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = Date().timeIntervalSince(started)
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      throw BenchError("\(argv.joined(separator: " ")) failed (status \(status))")
    }
    let cpu =
      Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    var run = Run(seconds: seconds, peakBytes: usage.ru_maxrss * 1024, cpuSeconds: cpu)
    if errors == .kept {
      run.errors = String(
        decoding: FileManager.default.contents(atPath: errorsPath) ?? Data(), as: UTF8.self)
    }
    return run
  }
}
