import COpenEXR
import CloudScrubCore
import Foundation
import TestSupport

/// A small Record3D "EXR + JPG" export written to a temporary folder: 48×64 colour,
/// 12×16 depth (frame i's depth is 1 + i/4 m everywhere), K with fx = fy = 50.
struct Record3DTestExport {
  let folder: URL
  var path: String { folder.path }

  static let depthWidth = 12
  static let depthHeight = 16

  /// The metadata every export starts from, for `frameCount` frames.
  static func metadata(frameCount: Int) -> [String: Any] {
    [
      "w": 48, "h": 64, "dw": depthWidth, "dh": depthHeight, "fps": 30, "cameraType": 1,
      "K": [50, 0, 0, 0, 50, 0, 24, 32, 1],
      "initPose": [0, 0, 0, 1, 0, 0, 0],
      "poses": (0..<frameCount).map { pose(frame: $0) },
      "frameTimestamps": (0..<frameCount).map { 100 + Double($0) / 30 },
      "perFrameIntrinsicCoeffs": (0..<frameCount).map { [50 + Double($0), 50, 24, 32] },
    ]
  }

  /// Frame i's pose row: a rotation of i × 0.1 rad about y, a translation of (i, 2, 3).
  static func pose(frame: Int) -> [Double] {
    let half = Double(frame) * 0.05
    return [0, sin(half), 0, cos(half), Double(frame), 2, 3]
  }

  static func depthMeters(frame: Int) -> Float { 1 + Float(frame) / 4 }

  /// Writes the export: `metadata` as `metadata.json`, depth files for `depthFrames`
  /// and colour files for `colorFrames`.
  init(metadata: [String: Any], depthFrames: [Int], colorFrames: [Int]? = nil) throws {
    folder = try TestData.makeTemporaryDirectory()
    let files = FileManager.default
    try files.createDirectory(
      at: folder.appendingPathComponent("depth"), withIntermediateDirectories: true)
    try files.createDirectory(
      at: folder.appendingPathComponent("rgb"), withIntermediateDirectories: true)
    try writeMetadata(metadata)
    let count = Self.depthWidth * Self.depthHeight
    for frame in depthFrames {
      try TestImages.writeEXR(
        path: folder.appendingPathComponent("depth/\(frame).exr").path,
        width: Self.depthWidth, height: Self.depthHeight,
        channels: [
          TestImages.EXRChannel(
            name: "R", type: EXR_PIXEL_HALF,
            values: [Float](repeating: Self.depthMeters(frame: frame), count: count))
        ])
    }
    let jpeg = try TestImages.jpeg(TestImages.gradient(width: 48, height: 64))
    for frame in colorFrames ?? depthFrames {
      try Data(jpeg).write(to: folder.appendingPathComponent("rgb/\(frame).jpg"))
    }
  }

  func writeMetadata(_ metadata: [String: Any]) throws {
    let json = try JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys])
    try json.write(to: folder.appendingPathComponent("metadata.json"))
  }

  func remove(_ relativePath: String) throws {
    try FileManager.default.removeItem(at: folder.appendingPathComponent(relativePath))
  }

  func file(_ relativePath: String) -> String { folder.appendingPathComponent(relativePath).path }

  func delete() { try? FileManager.default.removeItem(at: folder) }
}
