import CloudScrubCLI
import Foundation
import TestSupport
import Testing

/// `scripts/install.sh` into a scratch prefix, then `--uninstall`, with the test build's
/// binary (so nothing is built in release here).
@Suite struct InstallScriptTests {
  /// The MIME types the viewer opens, each with the extension and leading bytes that
  /// tell it apart (from the formats' specifications, not from the packaging files).
  static let types: [(type: String, glob: String)] = [
    ("model/x-ply", "*.ply"), ("application/x-pcl-pcd", "*.pcd"),
    ("application/vnd.las", "*.las"), ("model/e57", "*.e57"),
    ("application/x-record3d-r3d", "*.r3d"), ("application/x-cloudscrub-recording", "*.csrec"),
  ]

  @Test func versionNamesTheRelease() throws {
    let result = try CommandRunner.run(["--version"])
    #expect(result.status == 0)
    #expect(result.standardOutput == "cloudscrub \(CloudScrubCommand.version)\n")
  }

  @Test func installsTheDesktopEntryMimeTypesAndIconThenUninstallsExactlyThose() throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("cloudscrub-install-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    // Something of the user's already in the prefix, which uninstall must leave.
    let theirs = scratch.appendingPathComponent("share/applications/other.desktop")
    try FileManager.default.createDirectory(
      at: theirs.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("[Desktop Entry]\nName=Other\n".utf8).write(to: theirs)
    let before = try Self.files(under: scratch)

    let script = TestData.packageRoot.appendingPathComponent("scripts/install.sh")
    let environment = [
      "PREFIX": scratch.path, "CLOUDSCRUB_BINARY": CommandRunner.binary.path,
    ]
    let install = try CommandRunner.run(
      executable: URL(fileURLWithPath: "/bin/bash"), [script.path], environment: environment,
      timeoutSeconds: 120)
    #expect(install.status == 0, "\(install.standardError)")

    let installed = try Self.files(under: scratch)
    for path in [
      "bin/cloudscrub", "share/applications/cloudscrub.desktop",
      "share/mime/packages/cloudscrub.xml", "share/icons/hicolor/scalable/apps/cloudscrub.svg",
    ] {
      #expect(installed.contains(path), "\(path) was not installed")
    }
    let version = try CommandRunner.run(
      executable: scratch.appendingPathComponent("bin/cloudscrub"), ["--version"],
      timeoutSeconds: 60)
    #expect(version.standardOutput.hasPrefix("cloudscrub "))

    let desktop = try String(
      contentsOf: scratch.appendingPathComponent("share/applications/cloudscrub.desktop"),
      encoding: .utf8)
    #expect(desktop.contains("Exec=cloudscrub view %f"))
    let mimeLine = try #require(desktop.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
    let declared = Set(mimeLine.dropFirst("MimeType=".count).split(separator: ";").map(String.init))
    #expect(declared == Set(Self.types.map(\.type)))
    let mime = try String(
      contentsOf: scratch.appendingPathComponent("share/mime/packages/cloudscrub.xml"),
      encoding: .utf8)
    for (type, glob) in Self.types {
      #expect(mime.contains("<mime-type type=\"\(type)\">"), "\(type) missing")
      #expect(mime.contains("<glob pattern=\"\(glob)\""), "\(glob) missing")
    }

    let uninstall = try CommandRunner.run(
      executable: URL(fileURLWithPath: "/bin/bash"), [script.path, "--uninstall"],
      environment: environment, timeoutSeconds: 120)
    #expect(uninstall.status == 0, "\(uninstall.standardError)")
    #expect(try Self.files(under: scratch) == before)

    let again = try CommandRunner.run(
      executable: URL(fileURLWithPath: "/bin/bash"), [script.path, "--uninstall"],
      environment: environment, timeoutSeconds: 120)
    #expect(again.status == 1)
    #expect(again.standardError.contains("nothing to uninstall"))
  }

  /// Every file and folder under `root`, as paths relative to it.
  static func files(under root: URL) throws -> Set<String> {
    guard let walk = FileManager.default.enumerator(atPath: root.path) else { return [] }
    return Set(walk.compactMap { $0 as? String })
  }
}
