import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Helpers shared by the folder-layout tests (3D Scanner App, Polycam, ARKitScenes).
enum CaptureFixtures {
  /// A small synthetic capture: 64×48 depth, 128×96 colour, exact depths.
  static func synthetic(frames: Int = 5, startSeconds: Double = 10) -> SyntheticRecordingSource {
    SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: frames, depthWidth: 64, depthHeight: 48, colorWidth: 128, colorHeight: 96,
        startTimestampSeconds: startSeconds))
  }

  /// A fresh temporary folder.
  static func folder() throws -> String { try TestData.makeTemporaryDirectory().path }

  /// Each imported frame's world points against those of `expected`'s frame with its
  /// depth rounded to whole millimetres, as a millimetre PNG stores it: same count,
  /// each within `toleranceMeters`.
  static func expectSameWorldPoints(
    _ imported: any RecordingSource, _ expected: any RecordingSource, frames: [(Int, Int)],
    toleranceMeters: Float = 0.001, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let importedLoader = RecordingLoader(source: imported, decoder: TurboJPEGDecoder())
    let expectedLoader = RecordingLoader(
      source: MillimeterRoundedSource(base: expected), decoder: TurboJPEGDecoder())
    for (importedIndex, expectedIndex) in frames {
      let actual = try importedLoader.points(ofFrame: importedIndex).positions
      let wanted = try expectedLoader.points(ofFrame: expectedIndex).positions
      #expect(
        actual.count == wanted.count, "frame \(importedIndex)", sourceLocation: sourceLocation)
      #expect(wanted.count > 1000, sourceLocation: sourceLocation)
      var worst: Float = 0
      for (a, b) in zip(actual, wanted) {
        let d = SIMD3(a.x - b.x, a.y - b.y, a.z - b.z)
        worst = max(worst, (d * d).sum().squareRoot())
      }
      #expect(
        worst <= toleranceMeters, "frame \(importedIndex): \(worst) m",
        sourceLocation: sourceLocation)
    }
  }

  static func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static func jsonObject(_ path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func writeJSON(_ object: [String: Any], to path: String) throws {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      .write(to: URL(fileURLWithPath: path))
  }
}

/// A recording whose depths are rounded to whole millimetres, as a 16-bit millimetre
/// PNG keeps them.
struct MillimeterRoundedSource: RecordingSource {
  let base: any RecordingSource
  var description: RecordingDescription { base.description }
  var frameCount: Int { base.frameCount }

  func frame(at index: Int) throws -> CapturedFrame {
    var frame = try base.frame(at: index)
    let meters = frame.depth.metersGrid().map { value -> Float in
      let millimeters = (Double(value) * 1000).rounded()
      return millimeters > 0 && millimeters <= 65_535 ? Float(millimeters) / 1000 : 0
    }
    frame.depth = DepthMap(width: frame.depth.width, height: frame.depth.height, meters: meters)
    return frame
  }
}
