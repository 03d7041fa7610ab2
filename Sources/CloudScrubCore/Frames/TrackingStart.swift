/// Frames recorded before the phone's tracking started.
///
/// While ARKit initialises its world tracking it reports orientation only: the first
/// frames of a capture then carry a translation of exactly zero while their rotation
/// changes, and are placed as if the phone had not moved. A leading run of at least
/// two such frames, followed by a frame that moved, is taken for that (one frame at the
/// origin is what a world anchored at the first camera looks like, and a recording
/// whose every frame is at the origin has no trajectory to judge by).
public enum TrackingStart {
  /// How many leading frames have exactly zero translation, by the rule above (0 when
  /// the rule does not apply).
  public static func untrackedFrameCount(translations: [SIMD3<Double>]) -> Int {
    let run = translations.prefix { $0 == .zero }.count
    return run >= 2 && run < translations.count ? run : 0
  }

  /// The same for a recording, reading frame infos (time, intrinsics, pose) until the
  /// first frame that moved.
  ///
  /// - Throws: the error of a frame whose info cannot be read.
  public static func untrackedFrameCount(of source: any RecordingSource) throws -> Int {
    var translations: [SIMD3<Double>] = []
    for index in 0..<source.frameCount {
      let position = try source.frameInfo(at: index).pose.position
      translations.append(position)
      if position != .zero { break }
    }
    return untrackedFrameCount(translations: translations)
  }
}
