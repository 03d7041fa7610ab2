import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Targets for the folder layouts: a one-frame template folder is written once by the
/// project's own writer, then each input replaces one of its text files (or its depth
/// file) before the folder is opened and its frame read.
enum FolderTargets {
  static let all: [FuzzTarget] = [
    strayCSV, strayNumPy, polycamCamera, scannerAppFrame, arkitScenes, nerfstudio,
  ]

  /// A template folder, written once per process by `write`.
  final class Template: Sendable {
    let folder: String
    /// The paths of the folder's files, sorted, listed once: the inputs replace the
    /// files' contents, never their names.
    let paths: [String]

    init(_ name: String, write: (String) throws -> Void) {
      let folder = Scratch.subfolder(name)
      try? write(folder)
      let walker = FileManager.default.enumerator(atPath: folder)
      var names: [String] = []
      while let name = walker?.nextObject() as? String, names.count < 10_000 { names.append(name) }
      self.folder = folder
      paths = names.sorted().map { folder + "/" + $0 }
    }

    /// The first file under the folder whose path ends with `suffix`.
    func file(endingWith suffix: String) -> String? {
      paths.first { $0.hasSuffix(suffix) }
    }
  }

  /// A target whose input's first byte picks which of `files` it replaces.
  static func target(
    _ name: String, template: @escaping @Sendable () -> Template, files: [String],
    open: @escaping @Sendable (String) throws -> any RecordingSource
  ) -> FuzzTarget {
    FuzzTarget(
      name: name, maxLength: 1 << 16,
      run: { bytes in
        let folder = template()
        guard let selector = bytes.first, !files.isEmpty,
          let path = folder.file(endingWith: files[Int(selector) % files.count])
        else { return }
        let original = Scratch.read(path)
        Scratch.write(Array(bytes.dropFirst()), to: path)
        defer { Scratch.write(original, to: path) }
        guard let recording = try? open(folder.folder) else { return }
        FileTargets.exercise(recording)
      },
      seeds: {
        let folder = template()
        return files.enumerated().compactMap { index, suffix in
          folder.file(endingWith: suffix).map { [UInt8(index)] + Scratch.read($0) }
        }
      })
  }

  private static let strayTemplate = Template("stray") { folder in
    try StrayScannerWriter().write(Scratch.synthetic(frames: 1), to: folder)
    // Without the video the colour size is guessed from the intrinsics, the path that
    // has to survive any camera matrix; and no input reaches FFmpeg.
    try? FileManager.default.removeItem(atPath: folder + "/rgb.mp4")
  }
  static let strayCSV = target(
    "stray-csv", template: { strayTemplate }, files: ["odometry.csv", "camera_matrix.csv"],
    open: { try StrayScannerRecording(folder: $0) })

  private static let strayNumPyTemplate = Template("stray-npy") { folder in
    try StrayScannerWriter(depthFormat: .numPy).write(Scratch.synthetic(frames: 1), to: folder)
    try? FileManager.default.removeItem(atPath: folder + "/rgb.mp4")
  }
  static let strayNumPy = target(
    "stray-npy", template: { strayNumPyTemplate }, files: ["000000.npy"],
    open: { try StrayScannerRecording(folder: $0) })

  private static let polycamTemplate = Template("polycam") { folder in
    try PolycamWriter().write(Scratch.synthetic(frames: 1), to: folder)
  }
  static let polycamCamera = target(
    "polycam-camera", template: { polycamTemplate }, files: [".json"],
    open: { try InputDetector.openRecording($0) })

  private static let scannerAppTemplate = Template("scanner-app") { folder in
    try ScannerAppWriter().write(Scratch.synthetic(frames: 1), to: folder)
    // Without images the colour size is guessed from the JSON's intrinsics.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    where name.hasSuffix(".jpg") {
      try? FileManager.default.removeItem(atPath: folder + "/" + name)
    }
  }
  static let scannerAppFrame = target(
    "scannerapp-frame", template: { scannerAppTemplate }, files: ["frame_00000.json"],
    open: { try ScannerAppRecording(folder: $0) })

  private static let arkitScenesTemplate = Template("arkitscenes") { folder in
    try ARKitScenesWriter().write(Scratch.synthetic(frames: 1), to: folder)
  }
  static let arkitScenes = target(
    "arkitscenes", template: { arkitScenesTemplate }, files: [".traj", ".pincam"],
    open: { try InputDetector.openRecording($0) })

  private static let nerfstudioTemplate = Template("nerfstudio") { folder in
    try NerfstudioWriter().write(Scratch.synthetic(frames: 1), to: folder)
  }
  static let nerfstudio = target(
    "nerfstudio", template: { nerfstudioTemplate }, files: ["transforms.json"],
    open: { try NerfstudioRecording(folder: $0) })
}
