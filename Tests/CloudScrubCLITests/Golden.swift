import Foundation
import TestSupport
import Testing

/// Compares text with a golden file in `Tests/CloudScrubCLITests/Golden/`. A missing
/// or different golden file fails the test, and the actual text is written to
/// `actualFolder` (`NAME.actual`, outside the source tree) to inspect and, if right, to
/// copy into place.
enum Golden {
  static let folder = TestData.packageRoot.appendingPathComponent("Tests/CloudScrubCLITests/Golden")

  /// Where failing tests leave what they produced: the system's temporary folder,
  /// never the source tree.
  static let actualFolder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cloudscrub-test-actual")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  static func check(
    _ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let url = folder.appendingPathComponent(name)
    let actualURL = actualFolder.appendingPathComponent(name + ".actual")
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      try? actual.write(to: actualURL, atomically: true, encoding: .utf8)
      Issue.record(
        "no golden file \(url.path); the actual output is in \(actualURL.path)",
        sourceLocation: sourceLocation)
      return
    }
    if expected == actual {
      try? FileManager.default.removeItem(at: actualURL)
    } else {
      try? actual.write(to: actualURL, atomically: true, encoding: .utf8)
      Issue.record(
        "output differs from \(url.path); the actual output is in \(actualURL.path)",
        sourceLocation: sourceLocation)
    }
  }
}
