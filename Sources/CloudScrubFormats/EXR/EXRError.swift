import CloudScrubCore

/// What is wrong with an EXR depth file, and which file.
public typealias EXRError = InputFileError<EXRErrorReason>

/// What went wrong, without the path.
public enum EXRErrorReason: Equatable, Sendable {
  /// The bytes do not start with OpenEXR's magic number (a text file, a PNG…).
  case notEXR(byteCount: Int)
  /// The file has no channel of that name; `available` lists the ones it has.
  case missingChannel(name: String, available: [String])
  /// A tiled or deep file: the depth reader reads flat scanline images only.
  case unsupportedStorage(String)
  /// The channel's samples are not HALF or FLOAT (`UINT`).
  case unsupportedPixelType(channel: String, type: String)
  /// The channel is subsampled (x or y sampling other than 1).
  case subsampledChannel(name: String, xSampling: Int, ySampling: Int)
  /// The data window is no plausible depth map size (`ImageSizeLimits`): why.
  case unsupportedSize(String)
  /// OpenEXR's core library failed while doing `stage` (corrupt or truncated data);
  /// `message` is the library's.
  case corrupt(stage: String, message: String)
}

extension EXRErrorReason: CustomStringConvertible {
  /// What went wrong, without the path.
  public var description: String {
    switch self {
    case .notEXR(let byteCount):
      return "not an OpenEXR file: the \(byteCount) bytes do not start with its magic number"
    case .missingChannel(let name, let available):
      let list = available.isEmpty ? "none" : available.map { "'\($0)'" }.joined(separator: ", ")
      return "EXR has no channel '\(name)' (channels: \(list))"
    case .unsupportedStorage(let storage):
      return "EXR storage '\(storage)' is not supported (only flat scanline images)"
    case .unsupportedPixelType(let channel, let type):
      return "EXR channel '\(channel)' holds \(type) samples, not HALF or FLOAT"
    case .subsampledChannel(let name, let xSampling, let ySampling):
      return "EXR channel '\(name)' is subsampled (\(xSampling)×\(ySampling)); depth needs 1×1"
    case .unsupportedSize(let problem):
      return "EXR data window: \(problem)"
    case .corrupt(let stage, let message):
      return "corrupt or truncated EXR while \(stage): \(message)"
    }
  }
}
