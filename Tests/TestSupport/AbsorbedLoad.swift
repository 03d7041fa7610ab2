import CloudScrubCore
import Foundation

extension ViewerContent {
  /// Content that has absorbed every delivery of `load`, which has stopped, one at a
  /// time as the window takes them, with its level of detail grown on a builder in
  /// steps of `stepPoints`; nil when the builder was not done within `timeout` seconds.
  public static func absorbingAll(
    of load: StreamingLoad, stepPoints: Int, timeout: TimeInterval = 120
  ) -> ViewerContent? {
    let builder = LevelOfDetailBuilder(stepPoints: stepPoints)
    var content = ViewerContent(levelOfDetail: true, builder: builder)
    while true {
      let pieces = load.take(maxFrames: 1)
      guard !pieces.isEmpty else { break }
      _ = content.absorb(pieces)
    }
    guard builder.waitUntilIdle(timeout: timeout) else { return nil }
    return content
  }
}
