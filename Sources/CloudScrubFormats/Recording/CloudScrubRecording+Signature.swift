import CloudScrubCore

extension CloudScrubRecording {
  /// The bytes every CloudScrub recording starts with.
  public static var fileSignature: [UInt8] { RecordingLayout.magic }

  /// Whether `prefix` (the first bytes of a file) starts like a CloudScrub recording.
  public static func hasSignature(_ prefix: [UInt8]) -> Bool {
    prefix.starts(with: fileSignature)
  }
}
