import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Files and folders that cannot be read are named as such, not taken for absent or
/// for something CloudScrub does not know. Root reads everything, so there the commands
/// run as the unprivileged user `nobody` (`setpriv`).
@Suite struct UnreadableInputTests {
  /// Runs `cloudscrub` as a user that file permissions apply to.
  func runUnprivileged(_ arguments: [String]) throws -> CommandRunner.Result {
    guard getuid() == 0 else { return try CommandRunner.run(arguments) }
    return try CommandRunner.run(
      executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=65534", "--regid=65534", "--clear-groups", "--", CommandRunner.binary.path]
        + arguments)
  }

  /// A folder anyone may enter, removed with everything in it (permissions restored).
  func withFolder(_ body: (URL) throws -> Void) throws {
    let root = try TestData.makeTemporaryDirectory()
    defer {
      if let inside = FileManager.default.enumerator(atPath: root.path) {
        for case let name as String in inside {
          chmod(root.appendingPathComponent(name).path, 0o755)
        }
      }
      try? FileManager.default.removeItem(at: root)
    }
    chmod(root.path, 0o755)
    try body(root)
  }

  /// The unzipped `.r3d` of a 3-frame synthetic recording, at `folder`.
  func writeUnzippedR3D(to folder: URL, scratch: URL) throws {
    let archive = scratch.appendingPathComponent("capture.r3d")
    try R3DWriter().write(
      SyntheticRecordingSource(
        options: SyntheticRecordingOptions(
          frameCount: 3, depthWidth: 32, depthHeight: 24, colorWidth: 64, colorHeight: 48)),
      to: archive.path)
    let entries = try R3DArchive(path: archive.path)
    for name in entries.entryNames {
      let file = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(try entries.read(name, limitBytes: 1 << 20)).write(to: file)
    }
  }

  @Test func aFolderThatCannotBeListedSaysSoInsteadOfNotRecognised() throws {
    try withFolder { root in
      let locked = root.appendingPathComponent("scans")
      try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
      chmod(locked.path, 0o000)
      let result = try runUnprivileged(["info", locked.path])
      #expect(result.status == 1)
      #expect(
        result.standardError
          == "error: cannot read: the folder cannot be listed (Permission denied): "
          + "\(locked.path)\n")
    }
  }

  @Test func anUnzippedR3DWhoseFramesFolderCannotBeListedSaysSo() throws {
    try withFolder { root in
      let capture = root.appendingPathComponent("capture")
      try writeUnzippedR3D(to: capture, scratch: root)
      chmod(capture.appendingPathComponent("rgbd").path, 0o000)
      let result = try runUnprivileged(["info", capture.path])
      #expect(result.status == 1)
      #expect(
        result.standardError.contains(
          "cannot list the folder 'rgbd' of the unzipped .r3d (Permission denied): "
            + capture.path),
        "\(result.standardError)")
    }
  }

  @Test func anUnzippedR3DEntryThatCannotBeOpenedSaysSo() throws {
    try withFolder { root in
      let capture = root.appendingPathComponent("capture")
      try writeUnzippedR3D(to: capture, scratch: root)
      chmod(capture.appendingPathComponent("rgbd/1.depth").path, 0o000)
      let output = root.appendingPathComponent("out")
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      chmod(output.path, 0o777)
      let result = try runUnprivileged([
        "export", capture.path, "-o", output.appendingPathComponent("cloud.ply").path,
      ])
      #expect(result.status == 1)
      #expect(
        result.standardError.contains(
          "cannot read archive entry 'rgbd/1.depth': cannot open: Permission denied"),
        "\(result.standardError)")
      #expect(
        !FileManager.default.fileExists(atPath: output.appendingPathComponent("cloud.ply").path))
    }
  }
}
