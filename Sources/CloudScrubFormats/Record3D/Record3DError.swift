import CloudScrubCore

/// What is wrong with a Record3D export, and which file.
public typealias Record3DError = InputFileError<Record3DErrorReason>

/// What went wrong, without the path.
public enum Record3DErrorReason: Equatable, Sendable {
  /// The path is not a folder.
  case notAFolder
  /// `metadata.json` is absent.
  case missingMetadata
  /// `metadata.json` exists but cannot be read.
  case unreadableMetadata(message: String)
  /// `metadata.json` is not a JSON object; `message` is the parser's.
  case metadataNotJSON(message: String)
  /// A required key is absent from `metadata.json`.
  case missingKey(String)
  /// A key's value has the wrong shape (`expected` says what it should be).
  case badValue(key: String, expected: String)
  /// The depth image of a frame is absent.
  case missingDepthFile(frame: Int)
  /// The colour image of a frame is absent (other frames have one).
  case missingColorFile(frame: Int)
  /// A file of a frame exists but cannot be read.
  case unreadableFile(frame: Int, message: String)
  /// The depth image of a frame is not a readable EXR depth map.
  case depth(frame: Int, EXRError.Reason)
  /// `frame(at:)` was asked for a frame the recording does not have.
  case frameOutOfRange(index: Int, frameCount: Int)
}

extension Record3DErrorReason: CustomStringConvertible {
  /// What went wrong, without the path.
  public var description: String {
    switch self {
    case .notAFolder:
      return "not a folder"
    case .missingMetadata:
      return "Record3D export has no metadata.json"
    case .unreadableMetadata(let message):
      return "cannot read metadata: \(message)"
    case .metadataNotJSON(let message):
      return "metadata is not a JSON object: \(message)"
    case .missingKey(let key):
      return "metadata has no '\(key)' key"
    case .badValue(let key, let expected):
      return "metadata key '\(key)' should be \(expected)"
    case .missingDepthFile(let frame):
      return "frame \(frame) has no depth image"
    case .missingColorFile(let frame):
      return "frame \(frame) has no colour image"
    case .unreadableFile(let frame, let message):
      return "frame \(frame): cannot read: \(message)"
    case .depth(let frame, let reason):
      return "frame \(frame): \(reason)"
    case .frameOutOfRange(let index, let frameCount):
      return "frame \(index) is out of range (the recording has \(frameCount) frames)"
    }
  }
}
