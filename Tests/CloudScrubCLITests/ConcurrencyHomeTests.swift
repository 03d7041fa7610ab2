import Foundation
import TestSupport
import Testing

/// Threads and their synchronisation have one home each: `BackgroundWork` starts every
/// thread, `Parallel` is the one door to GCD's concurrent loop, and no other file of
/// `Sources/` names a thread, a dispatch queue, a semaphore or a condition.
@Suite struct ConcurrencyHomeTests {
  /// What only the homes may name.
  static let pattern =
    #"\b(DispatchQueue|concurrentPerform|NSCondition|DispatchSemaphore|DispatchGroup|"#
    + #"OperationQueue|pthread_create|Thread\.detachNewThread|Thread\()"#

  /// The homes, and the producer/consumer queues still built on their own condition
  /// until one bounded queue type serves them.
  static let allowed: Set<String> = [
    "CloudScrubCore/Support/BackgroundWork.swift",
    "CloudScrubCore/Support/Parallel.swift",
    "CloudScrubCore/Loading/StreamingLoad.swift",
    "CloudScrubCore/LevelOfDetail/LevelOfDetailBuilder.swift",
    "CloudScrubCore/Accumulation/RecordingLoader.swift",
    "CloudScrubSession/Video/VideoEncodingQueue.swift",
  ]

  /// Each line of code (comments aside) under `root` that names an idiom, outside
  /// `allowed` (paths relative to `root`), as `path:line: text`.
  static func offences(under root: URL, allowed: Set<String>) throws -> [String] {
    var found: [String] = []
    let idioms = try Regex(pattern)
    let files = FileManager.default.enumerator(atPath: root.path)
    while let relative = files?.nextObject() as? String {
      guard relative.hasSuffix(".swift"), !allowed.contains(relative) else { continue }
      let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//"), code.contains(idioms) else { continue }
        found.append("\(relative):\(number + 1): \(code)")
      }
    }
    return found.sorted()
  }

  @Test func onlyTheHomesNameThreadsQueuesAndConditions() throws {
    let sources = TestData.packageRoot.appendingPathComponent("Sources")
    for home in Self.allowed {
      #expect(FileManager.default.fileExists(atPath: sources.appendingPathComponent(home).path))
    }
    let found = try Self.offences(under: sources, allowed: Self.allowed)
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test func theCheckFindsAnIdiomOutsideItsHome() throws {
    let root = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Core"), withIntermediateDirectories: true)
    let files = [
      "Core/Loop.swift":
        "/// concurrentPerform in a comment\nDispatchQueue.concurrentPerform(iterations: 2) { _ in }\n",
      "Core/Home.swift": "let lock = NSCondition()\n",
      "Core/Name.swift": "let name = Thread.current.name\n",
    ]
    for (name, text) in files {
      try Data(text.utf8).write(to: root.appendingPathComponent(name))
    }
    let found = try Self.offences(under: root, allowed: ["Core/Home.swift"])
    #expect(found == ["Core/Loop.swift:2: DispatchQueue.concurrentPerform(iterations: 2) { _ in }"])
  }
}
