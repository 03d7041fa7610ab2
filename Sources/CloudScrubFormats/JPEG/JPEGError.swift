/// Why a JPEG could not be decoded.
///
/// The decoder works on bytes, not files: a caller that read the bytes from a file adds
/// the path (`Record3DError` does for its frames).
public enum JPEGError: Error, Equatable, Sendable {
  /// libjpeg-turbo could not create a decompressor (out of memory).
  case cannotCreateDecoder(message: String)
  /// The bytes are empty.
  case empty
  /// The header cannot be read: not a JPEG, or cut off before the frame header.
  case unreadableHeader(message: String)
  /// The image data is corrupt or cut off; `message` is libjpeg-turbo's
  /// (`tjGetErrorStr2`), e.g. "Premature end of JPEG file".
  case decodeFailed(message: String)
  /// A scale the linked libjpeg-turbo cannot decode at (see `JPEGScale.supported`).
  case unsupportedScale(JPEGScale)
  /// The header claims a size too large to decode into memory.
  case imageTooLarge(width: Int, height: Int)
}

extension JPEGError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .cannotCreateDecoder(let message):
      return "cannot create a JPEG decoder: \(message)"
    case .empty:
      return "not a JPEG: no bytes"
    case .unreadableHeader(let message):
      return "not a JPEG or truncated header: \(message)"
    case .decodeFailed(let message):
      return "corrupt or truncated JPEG: \(message)"
    case .unsupportedScale(let scale):
      let list = JPEGScale.supported.map(\.description).joined(separator: ", ")
      return "JPEG scale \(scale) is not supported (supported: \(list))"
    case .imageTooLarge(let width, let height):
      return "JPEG of \(width)×\(height) pixels is too large to decode"
    }
  }
}
