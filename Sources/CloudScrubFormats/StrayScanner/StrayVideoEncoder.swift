import CFFmpeg
import CloudScrubCore
import Foundation

/// Encodes RGB frames into an MP4 with FFmpeg, as Stray Scanner's `rgb.mp4`: YUV 4:2:0,
/// one video frame per call to `append`, at a constant frame rate.
///
/// Uses the first of `encoderNames` FFmpeg has (`libx264`, else `mpeg4`, by default),
/// else its default H.264 encoder. For tests and benchmarks; not thread-safe.
final class StrayVideoEncoder {
  let path: String
  let width: Int
  let height: Int
  /// The encoder's name, for notes and tests.
  let encoderName: String
  /// The pixel format encoded: YUV 4:2:0 as Stray writes, or another for tests of the
  /// decoder's conversion path.
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
  /// - Throws: `StrayVideoError` naming the FFmpeg call that failed, or `.noEncoder`.
  init(
    path: String, width: Int, height: Int, framesPerSecond: Int,
    encoderNames: [String] = ["libx264", "mpeg4"],
    pixelFormat: AVPixelFormat = AV_PIX_FMT_YUV420P
  ) throws {
    self.path = path
    self.width = width
    self.height = height
    self.pixelFormat = pixelFormat
    guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
      throw StrayVideoError(
        .badFrame("4:2:0 video needs an even size, not \(width)×\(height)"), path: path)
    }
    // The first named encoder FFmpeg was built with, else its default H.264 encoder.
    guard
      let encoder = encoderNames.lazy.compactMap({ avcodec_find_encoder_by_name($0) }).first
        ?? avcodec_find_encoder(AV_CODEC_ID_H264)
    else { throw StrayVideoError(.noEncoder, path: path) }
    encoderName = String(cString: encoder.pointee.name)
    // Every stored property is set from here on: a throw below runs deinit, which frees
    // whatever was allocated.

    var output: UnsafeMutablePointer<AVFormatContext>?
    var status = avformat_alloc_output_context2(&output, nil, "mp4", path)
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
    codec.pointee.gop_size = 12
    // No B-frames: keeps presentation order equal to decode order, which some players and
    // the mpeg4 encoder's timestamps need; size matters little for test fixtures.
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
    if encoderName == "libx264" {
      av_dict_set(&options, "crf", "12", 0)
      av_dict_set(&options, "preset", "veryfast", 0)
    }
    status = avcodec_open2(codec, encoder, &options)
    av_dict_free(&options)
    guard status >= 0 else { throw FFmpegConstants.error("avcodec_open2", status, path: path) }
    status = avcodec_parameters_from_context(stream.pointee.codecpar, codec)
    guard status >= 0 else {
      throw FFmpegConstants.error("avcodec_parameters_from_context", status, path: path)
    }
    stream.pointee.time_base = codec.pointee.time_base
    stream.pointee.avg_frame_rate = codec.pointee.framerate
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
  /// - Throws: `StrayVideoError` for a wrong size or a failed FFmpeg call.
  func append(_ image: RGBImage) throws {
    guard image.width == width, image.height == height else {
      throw StrayVideoError(
        .badFrame(
          "frame \(frameNumber) is \(image.width)×\(image.height), the video \(width)×\(height)"),
        path: path)
    }
    guard let codec, let frame else { return }
    var status = av_frame_make_writable(frame)
    guard status >= 0 else {
      throw FFmpegConstants.error("av_frame_make_writable", status, path: path)
    }
    scaler = sws_getCachedContext(
      scaler, Int32(width), Int32(height), AV_PIX_FMT_RGB24, Int32(width), Int32(height),
      pixelFormat,
      SWS_BILINEAR, nil, nil, nil)
    guard let scaler else {
      throw StrayVideoError(.badFrame("libswscale cannot convert RGB to YUV"), path: path)
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
      throw StrayVideoError(.badFrame("libswscale converted \(rows) rows"), path: path)
    }
    frame.pointee.pts = frameNumber
    frameNumber += 1
    status = avcodec_send_frame(codec, frame)
    guard status >= 0 else { throw FFmpegConstants.error("avcodec_send_frame", status, path: path) }
    try writePackets()
  }

  /// Drains the encoder and writes the container's trailer; the file is complete after.
  ///
  /// - Throws: `StrayVideoError` for a failed FFmpeg call.
  func finish() throws {
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
