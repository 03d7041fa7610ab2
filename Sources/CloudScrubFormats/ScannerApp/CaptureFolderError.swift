import CloudScrubCore

/// What is wrong with a capture folder of loose files (3D Scanner App, Polycam,
/// ARKitScenes), and which file.
///
/// The message names the frame and the key or line at fault, and ends with the path.
public typealias CaptureFolderError = InputFileError<CaptureFolderErrorReason>

/// What went wrong, without the path.
public enum CaptureFolderErrorReason: Equatable, Sendable {
  /// The path is not a folder.
  case notAFolder
  /// The folder holds no frame of the layout; `expected` says what was looked for.
  case noFrames(expected: String)
  /// A file the frame needs is absent; `what` names it ("depth image of frame 3").
  case missingFile(what: String)
  /// A file exists but cannot be read.
  case unreadableFile(message: String)
  /// A JSON file is not a JSON object; `message` is the parser's.
  case notJSON(message: String)
  /// A required key is absent from a JSON file.
  case missingKey(String)
  /// A key's value has the wrong shape (`expected` says what it should be).
  case badValue(key: String, expected: String)
  /// A line of a text file cannot be parsed (`line` counts from 1).
  case badLine(line: Int, expected: String)
  /// An image is not a readable PNG or JPEG; `message` is the decoder's.
  case badImage(message: String)
  /// A depth or confidence map's size differs from the recording's depth size.
  case wrongImageSize(width: Int, height: Int, expectedWidth: Int, expectedHeight: Int)
  /// `frame(at:)` was asked for a frame the recording does not have.
  case frameOutOfRange(index: Int, frameCount: Int)
}

extension CaptureFolderErrorReason: CustomStringConvertible {
  /// What went wrong, without the path.
  public var description: String {
    switch self {
    case .notAFolder: "not a folder"
    case .noFrames(let expected): "no frames found: expected \(expected)"
    case .missingFile(let what): "missing the \(what)"
    case .unreadableFile(let message): "cannot read: \(message)"
    case .notJSON(let message): "not a JSON object: \(message)"
    case .missingKey(let key): "no '\(key)' key"
    case .badValue(let key, let expected): "key '\(key)' should be \(expected)"
    case .badLine(let line, let expected): "line \(line) should be \(expected)"
    case .badImage(let message): "not a readable image: \(message)"
    case .wrongImageSize(let width, let height, let expectedWidth, let expectedHeight):
      "image is \(width)×\(height), expected \(expectedWidth)×\(expectedHeight) like the first depth map"
    case .frameOutOfRange(let index, let frameCount):
      "frame \(index) is out of range (the recording has \(frameCount) frames)"
    }
  }
}
