import CFFmpeg
import CloudScrubCore

/// What went wrong reading or writing a video (a Stray Scanner `rgb.mp4`, a video
/// `cloudscrub video` writes), and which file.
///
/// The message names the frame or the FFmpeg call at fault, and ends with the path.
public typealias VideoError = InputFileError<VideoErrorReason>

/// What went wrong, without the path.
public enum VideoErrorReason: Equatable, Sendable {
  /// An FFmpeg call failed; `message` is `av_strerror`'s text for `code`.
  case ffmpeg(call: String, code: Int32, message: String)
  /// The file holds no video stream, or none FFmpeg can decode.
  case noVideoStream
  /// The video ends before frame `index`; it holds `decodedFrames` frames.
  case missingFrame(index: Int, decodedFrames: Int)
  /// A frame's size or pixel layout cannot be used.
  case badFrame(String)
  /// The output's name says no video format.
  case unknownFormat
  /// No encoder for writing: FFmpeg has none of those tried.
  case noEncoder(tried: [String])
}

extension VideoErrorReason: CustomStringConvertible {
  public var description: String {
    switch self {
    case .ffmpeg(let call, let code, let message): "\(call) failed (\(code)): \(message)"
    case .noVideoStream: "no decodable video stream"
    case .missingFrame(let index, let decodedFrames):
      "the video has no frame \(index) (it ends after \(decodedFrames) frames)"
    case .badFrame(let message): "unusable video frame: \(message)"
    case .unknownFormat:
      "a video's name ends in .mp4, .webm, .mkv or .gif, or in / for a folder of PNG pictures"
    case .noEncoder(let tried):
      "no video encoder available (tried \(tried.joined(separator: ", ")))"
    }
  }
}

/// FFmpeg constants that are function-like macros in C and so do not import into
/// Swift; their values are fixed by FFmpeg's ABI (libavutil/error.h, avutil.h).
enum FFmpegConstants {
  /// `AVERROR(EAGAIN)`: FFmpeg negates POSIX codes, and EAGAIN is 11 on Linux.
  static let again: Int32 = -11
  /// `AVERROR_EOF`: `-MKTAG('E','O','F',' ')`.
  static let endOfFile: Int32 = -Int32(
    bitPattern: UInt32(0x45) | UInt32(0x4F) << 8 | UInt32(0x46) << 16 | UInt32(0x20) << 24)
  /// `AV_NOPTS_VALUE`: `INT64_C(0x8000000000000000)`.
  static let noTimestamp = Int64.min
  /// `AVSEEK_FLAG_BACKWARD`.
  static let seekBackward: Int32 = 1
  /// `AV_CODEC_FLAG_GLOBAL_HEADER`: `1 << 22`.
  static let codecGlobalHeader: Int32 = 1 << 22
  /// `AVFMT_GLOBALHEADER` and `AVFMT_NOFILE` output-format flags.
  static let formatGlobalHeader: Int32 = 0x0040
  static let formatNoFile: Int32 = 0x0001
  /// `AVIO_FLAG_WRITE`.
  static let ioWrite: Int32 = 2

  /// `av_strerror`'s text for `code`.
  static func message(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    if av_strerror(code, &buffer, buffer.count) < 0 { return "unknown FFmpeg error" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// A typed error for a failed call.
  static func error(_ call: String, _ code: Int32, path: String) -> VideoError {
    VideoError(.ffmpeg(call: call, code: code, message: message(code)), path: path)
  }
}
