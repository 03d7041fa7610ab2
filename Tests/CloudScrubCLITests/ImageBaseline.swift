import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// Compares a rendered PNG with a small baseline image under a stated tolerance.
///
/// Two pictures match when at most 1 % of their pixels differ by more than 48 (of 255)
/// in some channel, and the mean absolute channel difference is at most 2. That lets
/// rasterisation differences between OpenGL implementations (a point one pixel over,
/// a rounding in the colour ramp) pass while a wrong colour mode, camera or frame
/// range fails, and so do near misses (a frame left out, points one pixel larger;
/// `ImageBaselineToleranceTests`). A missing or differing baseline fails and leaves
/// the actual picture in `Golden.actualFolder` as NAME.actual.png, outside the source
/// tree; copy it over the baseline to accept it.
enum ImageBaseline {
  static let folder = Golden.folder.appendingPathComponent("images")
  static let differingPixelFraction = 0.01
  static let differingChannelThreshold = 48
  static let meanChannelDifference = 2.0

  static func check(
    _ actualPath: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let baselineURL = folder.appendingPathComponent(name)
    let actualURL = Golden.actualFolder.appendingPathComponent(
      (name as NSString).deletingPathExtension + ".actual.png")
    let actualBytes = try Data(contentsOf: URL(fileURLWithPath: actualPath))
    guard let baselineBytes = try? Data(contentsOf: baselineURL) else {
      try actualBytes.write(to: actualURL)
      Issue.record(
        "no baseline \(baselineURL.path); the actual picture is in \(actualURL.path)",
        sourceLocation: sourceLocation)
      return
    }
    let actual = try PNGCodec.decodeRGB(Array(actualBytes), path: actualPath)
    let baseline = try PNGCodec.decodeRGB(Array(baselineBytes), path: baselineURL.path)
    guard actual.width == baseline.width, actual.height == baseline.height else {
      try actualBytes.write(to: actualURL)
      let message: String =
        "size \(actual.width)×\(actual.height) differs from the baseline's \(baseline.width)×\(baseline.height); "
        + "the actual picture is in \(actualURL.path)"
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
      return
    }
    let comparison = compare(actual, baseline)
    if matches(comparison) {
      try? FileManager.default.removeItem(at: actualURL)
    } else {
      try actualBytes.write(to: actualURL)
      let percent = String(format: "%.2f", comparison.differingFraction * 100)
      let mean = String(format: "%.2f", comparison.meanDifference)
      let message: String =
        "picture differs from \(baselineURL.path): \(percent) % of pixels differ, mean channel difference "
        + "\(mean); the actual picture is in \(actualURL.path)"
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
  }

  /// Whether a comparison is within the tolerance.
  static func matches(_ comparison: (differingFraction: Double, meanDifference: Double)) -> Bool {
    comparison.differingFraction <= differingPixelFraction
      && comparison.meanDifference <= meanChannelDifference
  }

  /// The fraction of pixels whose largest channel difference exceeds
  /// `channelThreshold`, and the mean channel difference.
  static func compare(
    _ a: RGBImage, _ b: RGBImage, channelThreshold: Int = differingChannelThreshold
  ) -> (differingFraction: Double, meanDifference: Double) {
    var differing = 0
    var total = 0
    for pixel in 0..<(a.width * a.height) {
      var largest = 0
      for channel in 0..<3 {
        let d = abs(Int(a.pixels[pixel * 3 + channel]) - Int(b.pixels[pixel * 3 + channel]))
        total += d
        largest = max(largest, d)
      }
      if largest > channelThreshold { differing += 1 }
    }
    let pixels = Double(max(1, a.width * a.height))
    return (Double(differing) / pixels, Double(total) / (pixels * 3))
  }
}
