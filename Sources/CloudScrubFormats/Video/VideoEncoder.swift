import CFFmpeg
import CloudScrubCore
import Foundation

/// A video file's container and codec, as `VideoEncoder` writes it.
public enum VideoFormat: String, CaseIterable, Sendable {
  /// H.264 (libx264, else FFmpeg's other H.264 or MPEG-4 encoders) in MP4, YUV 4:2:0.
  case mp4
  /// VP9 (libvpx) in WebM, YUV 4:2:0.
  case webm
  /// FFV1 in Matroska: lossless RGB, decoded back to the very pixels encoded.
  case mkv
  /// GIF: 256 colours (`GIFPalette`), for short clips.
  case gif

  /// The format a file name's extension asks for, or nil.
  public init?(path: String) {
    let name = path.lowercased()
    guard let format = Self.allCases.first(where: { name.hasSuffix("." + $0.rawValue) }) else {
      return nil
    }
    self = format
  }

  /// FFmpeg's muxer name.
  var muxer: String { self == .mkv ? "matroska" : rawValue }

  /// The encoders tried in order.
  var encoderNames: [String] {
    switch self {
    case .mp4: ["libx264", "mpeg4"]
    case .webm: ["libvpx-vp9"]
    case .mkv: ["ffv1"]
    case .gif: ["gif"]
    }
  }

  var pixelFormat: AVPixelFormat {
    switch self {
    case .mp4, .webm: AV_PIX_FMT_YUV420P
    case .mkv: AV_PIX_FMT_BGR0
    case .gif: AV_PIX_FMT_PAL8
    }
  }
}

/// Encodes RGB frames into a video file with FFmpeg: one video frame per call to
/// `append`, at a constant frame rate, in the container and codec of a `VideoFormat`.
///
/// Not thread-safe: one thread appends (`VideoEncodingQueue` hands frames over).
public final class VideoEncoder {
  let path: String
  let width: Int
  let height: Int
  /// The encoder's name, for notes and tests.
  public let encoderName: String
  /// The pixel format encoded: the format's, or another for tests of the decoder's
  /// conversion path.
  let pixelFormat: AVPixelFormat

  private var output: UnsafeMutablePointer<AVFormatContext>?
  private var codec: UnsafeMutablePointer<AVCodecContext>?
  private var frame: UnsafeMutablePointer<AVFrame>?
  private var packet: UnsafeMutablePointer<AVPacket>?
  private var scaler: OpaquePointer?
  private var stream: UnsafeMutablePointer<AVStream>?
  private var frameNumber: Int64 = 0
  private var finished = false

  /// Creates `path` and writes the container header.
  ///
  /// - Parameters:
  ///   - encoderNames: the encoders to try, instead of the format's.
  ///   - pixelFormat: the pixel format to encode, instead of the format's.
  /// - Throws: `VideoError` naming the FFmpeg call that failed, or `.noEncoder`.
  public convenience init(
    path: String, width: Int, height: Int, framesPerSecond: Int, format: VideoFormat = .mp4
  ) throws {
    try self.init(
      path: path, width: width, height: height, framesPerSecond: framesPerSecond, format: format,
      encoderNames: nil, pixelFormat: nil)
  }

  init(
    path: String, width: Int, height: Int, framesPerSecond: Int, format: VideoFormat = .mp4,
    encoderNames: [String]? = nil, pixelFormat: AVPixelFormat? = nil
  ) throws {
    self.path = path
    self.width = width
    self.height = height
    let pixelFormat = pixelFormat ?? format.pixelFormat
    self.pixelFormat = pixelFormat
    let halves = pixelFormat == AV_PIX_FMT_YUV420P
    guard width > 0, height > 0, !halves || (width % 2 == 0 && height % 2 == 0) else {
      throw VideoError(
        .badFrame("4:2:0 video needs an even size, not \(width)×\(height)"), path: path)
    }
    // The first named encoder FFmpeg was built with, else (for MP4) its default H.264.
    let names = encoderNames ?? format.encoderNames
    guard
      let encoder = names.lazy.compactMap({ avcodec_find_encoder_by_name($0) }).first
        ?? (format == .mp4 ? avcodec_find_encoder(AV_CODEC_ID_H264) : nil)
    else { throw VideoError(.noEncoder(tried: names), path: path) }
    encoderName = String(cString: encoder.pointee.name)
    // Encoders log their statistics on standard error; failures come back as errors.
    av_log_set_level(AV_LOG_ERROR)
    // Every stored property is set from here on: a throw below runs deinit, which frees
    // whatever was allocated.

    var output: UnsafeMutablePointer<AVFormatContext>?
    var status = avformat_alloc_output_context2(&output, nil, format.muxer, path)
    guard status >= 0, let output else {
      throw FFmpegConstants.error("avformat_alloc_output_context2", status, path: path)
    }
    self.output = output
    guard let stream = avformat_new_stream(output, nil),
      let codec = avcodec_alloc_context3(encoder),
      let frame = av_frame_alloc(), let packet = av_packet_alloc()
    else { throw FFmpegConstants.error("avformat_new_stream", -12, path: path) }
    self.stream = stream
    self.codec = codec
    self.frame = frame
    self.packet = packet
    codec.pointee.width = Int32(width)
    codec.pointee.height = Int32(height)
    codec.pointee.pix_fmt = pixelFormat
    codec.pointee.time_base = AVRational(num: 1, den: Int32(framesPerSecond))
    codec.pointee.framerate = AVRational(num: Int32(framesPerSecond), den: 1)
    codec.pointee.gop_size = format == .mkv ? 1 : 2 * Int32(framesPerSecond)
    // No B-frames: keeps presentation order equal to decode order, which some players and
    // the mpeg4 encoder's timestamps need.
    codec.pointee.max_b_frames = 0
    if encoderName == "mpeg4" {
      // A fixed high quality, so colour tests measure the format and not the bitrate.
      codec.pointee.flags |= 2  // AV_CODEC_FLAG_QSCALE
      codec.pointee.global_quality = 2 * 118  // FF_QP2LAMBDA × qscale 2
    }
    if output.pointee.oformat.pointee.flags & FFmpegConstants.formatGlobalHeader != 0 {
      codec.pointee.flags |= FFmpegConstants.codecGlobalHeader
    }
    var options: OpaquePointer?
    Self.setOptions(&options, encoderName: encoderName, codec: codec)
    status = avcodec_open2(codec, encoder, &options)
    av_dict_free(&options)
    guard status >= 0 else { throw FFmpegConstants.error("avcodec_open2", status, path: path) }
    status = avcodec_parameters_from_context(stream.pointee.codecpar, codec)
    guard status >= 0 else {
      throw FFmpegConstants.error("avcodec_parameters_from_context", status, path: path)
    }
    stream.pointee.time_base = codec.pointee.time_base
    stream.pointee.avg_frame_rate = codec.pointee.framerate
    stream.pointee.r_frame_rate = codec.pointee.framerate
    frame.pointee.format = pixelFormat.rawValue
    frame.pointee.width = Int32(width)
    frame.pointee.height = Int32(height)
    status = av_frame_get_buffer(frame, 0)
    guard status >= 0 else {
      throw FFmpegConstants.error("av_frame_get_buffer", status, path: path)
    }
    if output.pointee.oformat.pointee.flags & FFmpegConstants.formatNoFile == 0 {
      status = avio_open(&output.pointee.pb, path, FFmpegConstants.ioWrite)
      guard status >= 0 else { throw FFmpegConstants.error("avio_open", status, path: path) }
    }
    status = avformat_write_header(output, nil)
    guard status >= 0 else {
      throw FFmpegConstants.error("avformat_write_header", status, path: path)
    }
  }

  /// Each encoder's settings: a high quality at a speed that keeps up with rendering.
  private static func setOptions(
    _ options: inout OpaquePointer?, encoderName: String,
    codec: UnsafeMutablePointer<AVCodecContext>
  ) {
    switch encoderName {
    case "libx264":
      av_dict_set(&options, "crf", "16", 0)
      av_dict_set(&options, "preset", "veryfast", 0)
    case "libvpx-vp9":
      av_dict_set(&options, "crf", "30", 0)
      av_dict_set(&options, "b", "0", 0)
      av_dict_set(&options, "deadline", "realtime", 0)
      av_dict_set(&options, "cpu-used", "8", 0)
      av_dict_set(&options, "row-mt", "1", 0)
      codec.pointee.thread_count = Int32(min(8, Parallel.cores))
    case "ffv1":
      av_dict_set(&options, "level", "3", 0)
      av_dict_set(&options, "slices", "4", 0)
      codec.pointee.thread_count = Int32(min(4, Parallel.cores))
    default:
      break
    }
  }

  deinit {
    if let output {
      if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
      avformat_free_context(output)
    }
    if codec != nil { avcodec_free_context(&codec) }
    if frame != nil { av_frame_free(&frame) }
    if packet != nil { av_packet_free(&packet) }
    if let scaler { sws_freeContext(scaler) }
  }

  /// Encodes one RGB image of the video's size as the next frame.
  ///
  /// - Throws: `VideoError` for a wrong size or a failed FFmpeg call.
  public func append(_ image: RGBImage) throws {
    guard image.width == width, image.height == height else {
      throw VideoError(
        .badFrame(
          "frame \(frameNumber) is \(image.width)×\(image.height), the video \(width)×\(height)"),
        path: path)
    }
    guard let codec, let frame else { return }
    var status = av_frame_make_writable(frame)
    guard status >= 0 else {
      throw FFmpegConstants.error("av_frame_make_writable", status, path: path)
    }
    if pixelFormat == AV_PIX_FMT_PAL8 {
      fillPaletted(frame, from: image)
    } else {
      try convert(image, into: frame)
    }
    frame.pointee.pts = frameNumber
    frameNumber += 1
    status = avcodec_send_frame(codec, frame)
    guard status >= 0 else { throw FFmpegConstants.error("avcodec_send_frame", status, path: path) }
    try writePackets()
  }

  /// The image into the frame's planes, through libswscale.
  private func convert(_ image: RGBImage, into frame: UnsafeMutablePointer<AVFrame>) throws {
    scaler = sws_getCachedContext(
      scaler, Int32(width), Int32(height), AV_PIX_FMT_RGB24, Int32(width), Int32(height),
      pixelFormat, SWS_BILINEAR, nil, nil, nil)
    guard let scaler else {
      throw VideoError(.badFrame("libswscale cannot convert RGB to \(pixelFormat)"), path: path)
    }
    let f = frame.pointee
    let targets: [UnsafeMutablePointer<UInt8>?] = [f.data.0, f.data.1, f.data.2, nil]
    let targetStrides: [Int32] = [f.linesize.0, f.linesize.1, f.linesize.2, 0]
    let rows = image.pixels.withUnsafeBufferPointer { pixels -> Int32 in
      let sources: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
      let strides: [Int32] = [Int32(width * 3), 0, 0, 0]
      return sws_scale(scaler, sources, strides, 0, Int32(height), targets, targetStrides)
    }
    guard rows == Int32(height) else {
      throw VideoError(.badFrame("libswscale converted \(rows) rows"), path: path)
    }
  }

  /// The image as indices into `GIFPalette`'s colours (plane 0), with the palette as
  /// FFmpeg's 256 native-endian ARGB words (plane 1).
  private func fillPaletted(_ frame: UnsafeMutablePointer<AVFrame>, from image: RGBImage) {
    let f = frame.pointee
    guard let indices = f.data.0, let palette = f.data.1 else { return }
    let stride = Int(f.linesize.0)
    GIFPalette.indices(of: image, into: indices, rowStride: stride)
    palette.withMemoryRebound(to: UInt32.self, capacity: 256) { words in
      for (slot, colour) in GIFPalette.colours.enumerated() {
        words[slot] =
          0xFF00_0000 | UInt32(colour.r) << 16 | UInt32(colour.g) << 8 | UInt32(colour.b)
      }
    }
  }

  /// Drains the encoder and writes the container's trailer; the file is complete after.
  ///
  /// - Throws: `VideoError` for a failed FFmpeg call.
  public func finish() throws {
    guard !finished, let codec, let output else { return }
    finished = true
    let status = avcodec_send_frame(codec, nil)
    guard status >= 0 else { throw FFmpegConstants.error("avcodec_send_frame", status, path: path) }
    try writePackets()
    let written = av_write_trailer(output)
    guard written >= 0 else { throw FFmpegConstants.error("av_write_trailer", written, path: path) }
    if output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
  }

  /// Moves every packet the encoder has ready into the file.
  private func writePackets() throws {
    guard let codec, let packet, let output, let stream else { return }
    while true {
      let received = avcodec_receive_packet(codec, packet)
      if received == FFmpegConstants.again || received == FFmpegConstants.endOfFile { return }
      guard received >= 0 else {
        throw FFmpegConstants.error("avcodec_receive_packet", received, path: path)
      }
      av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
      packet.pointee.stream_index = stream.pointee.index
      // Takes the packet's data and leaves it blank for the next receive.
      let written = av_interleaved_write_frame(output, packet)
      guard written >= 0 else {
        throw FFmpegConstants.error("av_interleaved_write_frame", written, path: path)
      }
    }
  }
}
