import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// The table a signal handler unlinks from, and the clean-up of what killed writers
/// left behind.
@Suite(.serialized) struct TemporaryFilesTests {
  func touch(_ path: String) {
    #expect(
      FileManager.default.createFile(atPath: path, contents: Data([1])), "cannot create \(path)")
  }

  @Test func removeAllUnlinksExactlyTheRegisteredFilesAndSlotsAreReused() throws {
    TemporaryFiles.prepare()
    let folder = try TestData.makeTemporaryDirectory().path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = Set(TemporaryFiles.registered)
    let paths = (0..<5).map { folder + "/.f\($0).tmp-1-1" }
    for path in paths {
      touch(path)
      #expect(TemporaryFiles.register(path) != nil)
    }
    TemporaryFiles.unregister(paths[1])
    let kept = folder + "/kept"
    touch(kept)
    #expect(
      Set(TemporaryFiles.registered).subtracting(before) == Set(paths).subtracting([paths[1]]))
    TemporaryFiles.removeAll()
    for path in paths where path != paths[1] {
      #expect(!FileManager.default.fileExists(atPath: path))
    }
    #expect(FileManager.default.fileExists(atPath: paths[1]))
    #expect(FileManager.default.fileExists(atPath: kept))
    for path in paths { TemporaryFiles.unregister(path) }
    #expect(Set(TemporaryFiles.registered) == before)
  }

  @Test func aFullTableOrAnOverlongPathIsRefusedNotATrap() throws {
    let free = TemporaryFiles.capacity - TemporaryFiles.registered.count
    let paths = (0..<free).map { "/nonexistent/.x\($0).tmp-1-1" }
    defer { for path in paths { TemporaryFiles.unregister(path) } }
    for path in paths { #expect(TemporaryFiles.register(path) != nil) }
    #expect(TemporaryFiles.register("/nonexistent/.one-more.tmp-1-1") == nil)
    #expect(TemporaryFiles.register("/" + String(repeating: "a", count: 5000)) == nil)
  }

  @Test func temporaryNamesNameTheirWriter() {
    let name = TemporaryFiles.name(for: "out.ply")
    #expect(name.hasPrefix(".out.ply.tmp-\(getpid())-"))
    #expect(TemporaryFiles.writer(of: name) == getpid())
    #expect(TemporaryFiles.writer(of: ".a.b.tmp-123-456") == 123)
    for other in [
      "out.ply", ".out.ply", ".tmp-1-2", ".x.tmp-1", ".x.tmp-a-2", ".x.tmp-1-2-3", "x.tmp-1-2",
    ] {
      #expect(TemporaryFiles.writer(of: other) == nil, "\(other)")
    }
  }

  /// The id of a process that has run and exited.
  static func exitedProcessID() throws -> Int32 {
    let finished = Process()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    return finished.processIdentifier
  }

  @Test func staleFilesOfDeadWritersAreRemovedAndOthersKept() throws {
    let folder = try TestData.makeTemporaryDirectory().path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // A process that has exited: its temporary file is litter.
    let dead = try Self.exitedProcessID()
    let stale = ".out.ply.tmp-\(dead)-42"
    let live = ".out.ply.tmp-\(getpid())-7"  // this process: still being written
    let parent = ".other.ply.tmp-\(getppid())-9"  // a running process
    for name in [stale, live, parent, "out.ply", ".notes.tmp"] { touch(folder + "/" + name) }
    #expect(TemporaryFiles.removeStale(in: folder) == [stale])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        == [live, parent, ".notes.tmp", "out.ply"].sorted())
  }

  @Test func aNewWriterRemovesStaleFilesInItsFolder() throws {
    let folder = try TestData.makeTemporaryDirectory().path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let stale = folder + "/.cloud.ply.tmp-\(try Self.exitedProcessID())-1"
    touch(stale)
    let writer = try AtomicFileWriter(path: folder + "/cloud.ply")
    try writer.write([1, 2, 3])
    try writer.commit()
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["cloud.ply"])
  }
}
