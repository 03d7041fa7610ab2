import CloudScrubCore
import Foundation
import TestSupport
import Testing

/// Inputs a new user might hand over by mistake, and some that no app writes: each gets
/// an error that names it, at once, with exit status 1.
@Suite struct HostileInputTests {
  /// Far more than any of these commands needs, so that a hang fails the test quickly
  /// instead of holding the suite.
  static let limitSeconds: TimeInterval = 120

  func run(_ arguments: [String]) throws -> CommandRunner.Result {
    try CommandRunner.run(arguments, timeoutSeconds: Self.limitSeconds)
  }

  @Test func aNamedPipeIsRefusedAtOnceByInfoAndExport() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let pipe = folder.appendingPathComponent("x.ply").path
    #expect(mkfifo(pipe, 0o644) == 0)
    let info = try run(["info", pipe])
    #expect(info.status == 1)
    #expect(info.standardError == "error: not a regular file: \(pipe)\n")
    let output = folder.appendingPathComponent("out.ply").path
    let export = try run(["export", pipe, "-o", output])
    #expect(export.status == 1)
    #expect(export.standardError == "error: not a regular file: \(pipe)\n")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func aDeviceIsRefused() throws {
    let info = try run(["info", "/dev/zero"])
    #expect(info.status == 1)
    #expect(info.standardError == "error: not a regular file: /dev/zero\n")
  }

  @Test func aLoopOfSymbolicLinksIsNamed() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a").path
    let b = folder.appendingPathComponent("b").path
    #expect(symlink(b, a) == 0 && symlink(a, b) == 0)
    let info = try run(["info", a])
    #expect(info.status == 1)
    #expect(info.standardError == "error: cannot open: Too many levels of symbolic links: \(a)\n")
    // A folder holding a link to itself is listed, never walked without end.
    let capture = folder.appendingPathComponent("capture")
    try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
    #expect(symlink(capture.path, capture.appendingPathComponent("depth").path) == 0)
    let loop = try run(["info", capture.path])
    #expect(loop.status == 1)
    #expect(loop.standardError.contains("a folder that is no recording CloudScrub knows"))
  }

  @Test func aReaderHandedAPipeDirectlyRefusesItAtOnce() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let pipe = folder.appendingPathComponent("frame_00000.json").path
    #expect(mkfifo(pipe, 0o644) == 0)
    // Files inside recording folders are read through MappedFile, which must not wait
    // for a writer to open the other end.
    let error = #expect(throws: FileError.self) { try MappedFile(path: pipe) }
    #expect(error?.reason == .notARegularFile)
  }

  @Test func aRecordingWithNoReadableFrameExportsNothingAndExitsOne() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = folder.appendingPathComponent("one.csrec").path
    let synth = try run(["synth", whole, "--frames", "1"])
    #expect(synth.status == 0)
    // Cut inside frame 0: the scan that recovers unfinished files finds no frame.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
    let cut = folder.appendingPathComponent("cut.csrec")
    try bytes.prefix(3000).write(to: cut)
    let output = folder.appendingPathComponent("out.ply").path
    let export = try run(["export", cut.path, "-o", output])
    #expect(export.status == 1)
    #expect(
      export.standardError.hasPrefix(
        "error: cannot read: the recording has no frame that can be read ("))
    #expect(export.standardError.hasSuffix(": \(cut.path)\n"))
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "cut.csrec", "one.csrec",
      ])

    // Its only frame failing its CRC: exit 1 too, naming the frame.
    var damaged = bytes
    damaged[2000] ^= 0x40
    let bad = folder.appendingPathComponent("bad.csrec")
    try damaged.write(to: bad)
    let badExport = try run(["export", bad.path, "-o", output])
    #expect(badExport.status == 1)
    #expect(badExport.standardError.contains("frame 0: CRC-32 mismatch"))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func aChildThatHangsIsKilledAtItsTimeLimit() throws {
    let error = #expect(throws: CommandRunner.Timeout.self) {
      try CommandRunner.run(
        executable: URL(fileURLWithPath: "/bin/sleep"), ["600"], timeoutSeconds: 1)
    }
    #expect(error?.command == "sleep 600")
  }
}

/// Interrupting a command that writes a file leaves neither the target nor litter.
@Suite struct InterruptedExportTests {
  @Test func sigintDuringAnExportRemovesItsTemporaryFile() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("big.ply").path
    let synth = try CommandRunner.run(["synth", input, "--points", "3000000"])
    #expect(synth.status == 0, "\(synth.standardError)")
    let output = folder.appendingPathComponent("out.ply").path
    let process = Process()
    process.executableURL = CommandRunner.binary
    process.arguments = ["export", input, "-o", output, "--ascii"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { process.stop(grace: 2) }
    func temporaryFiles() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasPrefix(".out.ply.tmp-") }
    }
    // The export creates its temporary file once it has read the input; writing 3 M
    // ASCII records takes far longer than the signal takes to arrive after that.
    let started = try FolderWatch.waitForEntry(
      in: folder.path, prefix: ".out.ply.tmp-", timeout: 120)
    try #require(started, "the export never started writing")
    try #require(process.isRunning, "the export finished before it could be interrupted")
    #expect(!temporaryFiles().isEmpty)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(
      process.terminationReason == .exit && process.terminationStatus == 130,
      "\(process.terminationReason.rawValue) \(process.terminationStatus)")
    #expect(temporaryFiles().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: output))
  }
}
