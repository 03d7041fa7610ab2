import Foundation

/// Locations of the project's own files and of the shared test data, for tests.
public enum TestData {
  /// The package root (the folder that holds `Package.swift`).
  public static let packageRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        return url
      }
    }
    preconditionFailure("no Package.swift above \(#filePath)")
  }()

  /// `../shared/data` beside the project, or `nil` when it is absent (tests that need
  /// it skip then).
  public static let sharedData: URL? = {
    let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }()

  /// A file under `../shared/data`, or `nil` when the folder is absent.
  public static func shared(_ relativePath: String) -> String? {
    sharedData.map { $0.appendingPathComponent(relativePath).path }
  }

  /// The project's sample in `Assets/`.
  public static var samplePLY: String {
    packageRoot.appendingPathComponent("Assets/sample.ply").path
  }

  /// A fresh empty folder under the system's temporary folder.
  public static func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("cloudscrub-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
