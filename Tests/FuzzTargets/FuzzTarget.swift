import CloudScrubCore
import Foundation

/// One reader of untrusted bytes, as the fuzzer drives it: bytes in, every error
/// swallowed. Anything else (a trap, a hang, a leak, a memory error) is a defect.
///
/// The same functions run in the normal test suite on the seeds and on every
/// minimised crash input kept in `Tests/FuzzRegressions/<name>/`, so a fixed defect
/// stays fixed without a fuzzing build.
public struct FuzzTarget: Sendable {
  /// The target's name, as `scripts/fuzz.sh` takes it ("ply", "csrec").
  public var name: String
  /// The longest input worth trying (libFuzzer's `-max_len`).
  public var maxLength: Int
  /// Reads `bytes` the way the shipping code does; returns normally on any error.
  public var run: @Sendable ([UInt8]) -> Void
  /// Valid inputs written by the project's own writers, to start the corpus from.
  public var seeds: @Sendable () -> [[UInt8]]

  public init(
    name: String, maxLength: Int, run: @escaping @Sendable ([UInt8]) -> Void,
    seeds: @escaping @Sendable () -> [[UInt8]]
  ) {
    self.name = name
    self.maxLength = maxLength
    self.run = run
    self.seeds = seeds
  }
}

/// Every fuzz target, one per reader of untrusted bytes.
public enum FuzzTargets {
  public static let all: [FuzzTarget] =
    FileTargets.all + FolderTargets.all + ImageTargets.all + E57Targets.all
    + CloudFileTargets.all + MeshTargets.all

  /// The target named `name`, or nil.
  public static func named(_ name: String) -> FuzzTarget? {
    all.first { $0.name == name }
  }
}

/// Scratch files the targets write their inputs to, in one folder per process under
/// `TMPDIR` (which `scripts/fuzz.sh` points at a folder it removes afterwards).
enum Scratch {
  static let folder: String = {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("cloudscrub-fuzz-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    // Removed when the process exits normally (the tests, a fuzzer run that ends);
    // scripts/fuzz.sh also removes the TMPDIR it gave a run that crashed.
    atexit { try? FileManager.default.removeItem(atPath: Scratch.folder) }
    return path
  }()

  /// A fresh sub-folder of the scratch folder.
  static func subfolder(_ name: String) -> String {
    let path = folder + "/" + name
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Replaces the file at `path` with `bytes`, without the `fsync` of `Data.write`.
  static func write(_ bytes: [UInt8], to path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Foundation.write(descriptor, $0.baseAddress.map { $0 + offset }, bytes.count - offset)
      }
      guard written > 0 else { return }
      offset += written
    }
  }

  static func read(_ path: String) -> [UInt8] {
    (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) } ?? []
  }

  /// A small synthetic capture for the writers that make the seeds and templates.
  static func synthetic(frames: Int = 2) -> SyntheticRecordingSource {
    SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: frames, depthWidth: 32, depthHeight: 24, colorWidth: 64, colorHeight: 48))
  }

  /// The first `frames` (at most four) of `synthetic(frames: 4)`, rendered once: for a
  /// target that reads a capture's frames on every input and whose subject is not the
  /// synthetic renderer.
  static func rendered(frames: Int) -> HeldFrames {
    HeldFrames(frames: Array(renderedFrames.prefix(frames)))
  }

  private static let renderedFrames: [CapturedFrame] = {
    let source = synthetic(frames: 4)
    return (0..<source.frameCount).compactMap { try? source.frame(at: $0) }
  }()

  /// A capture whose frames are held in memory.
  struct HeldFrames: RecordingSource {
    let frames: [CapturedFrame]
    var description: RecordingDescription {
      RecordingDescription(format: "held frames", depthWidth: 32, depthHeight: 24)
    }
    var frameCount: Int { frames.count }
    func frame(at index: Int) throws -> CapturedFrame { frames[index] }
  }
}
