import CFFmpeg
import CloudScrubCore
import Foundation

/// Decodes a video (a Stray Scanner `rgb.mp4`, a video `cloudscrub video` wrote) frame by
/// frame index, with FFmpeg.
///
/// Video frames can only be decoded in order from a keyframe, so the decoder stays
/// positioned after the last frame it produced and decodes forward to the next one
/// asked for. A request behind that position is first looked up in a small ring of
/// recent frames (the loader's worker threads ask in nearly increasing order), and only
/// otherwise seeks back to the start and decodes forward again: correct for any order,
/// fast for the usual one. One lock serialises all access, as FFmpeg's contexts are not
/// thread-safe.
public final class VideoDecoder: @unchecked Sendable {
  /// The video file.
  public let path: String
  /// The size of the decoded frames.
  public let width: Int
  public let height: Int
  /// The stream's average frame rate, when it says.
  public let framesPerSecond: Double?
  /// The frame count the container claims (0 when it does not say).
  public let declaredFrameCount: Int

  private let lock = NSLock()
  private var format: UnsafeMutablePointer<AVFormatContext>?
  private var codec: UnsafeMutablePointer<AVCodecContext>?
  private var packet: UnsafeMutablePointer<AVPacket>?
  private var decoded: UnsafeMutablePointer<AVFrame>?
  private var scaler: OpaquePointer?
  private let streamIndex: Int32
  /// Where a rewind seeks to: the stream's first timestamp (0 when it does not say).
  private let startTimestamp: Int64
  /// The index the next frame out of the decoder will have.
  private var nextIndex = 0
  /// Whether the demuxer is exhausted and the decoder has been told to drain.
  private var draining = false
  /// Set once the decoder has returned its last frame: `nextIndex` is the frame count.
  private var endIndex: Int?
  private var ring: [(index: Int, image: ColorImage)] = []
  private let ringCapacity: Int

  /// Opens the video and its decoder.
  ///
  /// - Parameter ringCapacity: how many recent frames to keep for out-of-order requests.
  /// - Throws: `VideoError` naming the failing FFmpeg call, or when the file has no
  ///   video stream FFmpeg can decode.
  public init(path: String, ringCapacity: Int = 8) throws {
    self.path = path
    self.ringCapacity = max(1, ringCapacity)
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?
    // Every failure below releases what was set up so far; success hands it all over.
    func fail(_ error: VideoError) -> VideoError {
      Self.release(format: &format, codec: &codec, packet: &packet, frame: &frame)
      return error
    }
    var status = avformat_open_input(&format, path, nil, nil)
    guard status >= 0, let openFormat = format else {
      throw fail(FFmpegConstants.error("avformat_open_input", status, path: path))
    }
    status = avformat_find_stream_info(openFormat, nil)
    guard status >= 0 else {
      throw fail(FFmpegConstants.error("avformat_find_stream_info", status, path: path))
    }
    var decoder: UnsafePointer<AVCodec>?
    let index = av_find_best_stream(openFormat, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
    guard index >= 0, let decoder, let stream = openFormat.pointee.streams[Int(index)] else {
      throw fail(VideoError(.noVideoStream, path: path))
    }
    codec = avcodec_alloc_context3(decoder)
    packet = av_packet_alloc()
    frame = av_frame_alloc()
    guard let openCodec = codec, packet != nil, frame != nil else {
      throw fail(FFmpegConstants.error("avcodec_alloc_context3", -12, path: path))
    }
    status = avcodec_parameters_to_context(openCodec, stream.pointee.codecpar)
    guard status >= 0 else {
      throw fail(FFmpegConstants.error("avcodec_parameters_to_context", status, path: path))
    }
    status = avcodec_open2(openCodec, decoder, nil)
    guard status >= 0 else {
      throw fail(FFmpegConstants.error("avcodec_open2", status, path: path))
    }
    let width = Int(openCodec.pointee.width)
    let height = Int(openCodec.pointee.height)
    guard width > 0, height > 0 else {
      throw fail(
        VideoError(.badFrame("the stream claims \(width)×\(height) pixels"), path: path))
    }
    self.width = width
    self.height = height
    streamIndex = index
    let start = stream.pointee.start_time
    startTimestamp = start == FFmpegConstants.noTimestamp ? 0 : start
    let rate = stream.pointee.avg_frame_rate
    framesPerSecond = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : nil
    declaredFrameCount = max(0, Int(stream.pointee.nb_frames))
    self.format = format
    self.codec = codec
    self.packet = packet
    self.decoded = frame
  }

  deinit {
    Self.release(format: &format, codec: &codec, packet: &packet, frame: &decoded)
    if let scaler { sws_freeContext(scaler) }
  }

  private static func release(
    format: inout UnsafeMutablePointer<AVFormatContext>?,
    codec: inout UnsafeMutablePointer<AVCodecContext>?,
    packet: inout UnsafeMutablePointer<AVPacket>?, frame: inout UnsafeMutablePointer<AVFrame>?
  ) {
    if frame != nil { av_frame_free(&frame) }
    if packet != nil { av_packet_free(&packet) }
    if codec != nil { avcodec_free_context(&codec) }
    if format != nil { avformat_close_input(&format) }
  }

  /// Video frame `index` (0-based, in presentation order): YCbCr 4:2:0 planes for
  /// 4:2:0 video, converted to RGB for any other pixel format.
  ///
  /// - Throws: `VideoError.missingFrame` when the video ends before `index`, or
  ///   an FFmpeg error naming the call.
  public func frame(at index: Int) throws -> ColorImage {
    lock.lock()
    defer { lock.unlock() }
    if let cached = ring.first(where: { $0.index == index }) { return cached.image }
    if let endIndex, index >= endIndex {
      throw VideoError(.missingFrame(index: index, decodedFrames: endIndex), path: path)
    }
    guard index >= 0 else {
      throw VideoError(.missingFrame(index: index, decodedFrames: nextIndex), path: path)
    }
    if index < nextIndex { try rewind() }
    while true {
      guard let image = try decodeNext() else {
        endIndex = nextIndex
        throw VideoError(.missingFrame(index: index, decodedFrames: nextIndex), path: path)
      }
      let produced = nextIndex
      nextIndex += 1
      // Only frames near the request are worth keeping; earlier ones are skipped over.
      if produced >= index - ringCapacity {
        if ring.count >= ringCapacity { ring.removeFirst() }
        ring.append((produced, image))
      }
      if produced == index { return image }
    }
  }

  /// Every frame from the first, as RGB (4:2:0 converted as the unprojector converts
  /// it): what checks of a written video compare.
  ///
  /// - Throws: an FFmpeg error naming the call.
  public func rgbFrames() throws -> [RGBImage] {
    var images: [RGBImage] = []
    while true {
      let image: ColorImage
      do { image = try frame(at: images.count) } catch let error as VideoError {
        guard case .missingFrame = error.reason else { throw error }
        return images
      }
      switch image {
      case .rgb(let rgb): images.append(rgb)
      case .yCbCr420(let planes): images.append(StrayScannerWriter.rgb(of: planes))
      default: throw VideoError(.badFrame("a frame neither RGB nor 4:2:0"), path: path)
      }
    }
  }

  /// Seeks back to the first frame and resets the decoder.
  private func rewind() throws {
    guard let format, let codec else { return }
    // Backward: the keyframe at or before the first timestamp, which is frame 0.
    let status = av_seek_frame(format, streamIndex, startTimestamp, FFmpegConstants.seekBackward)
    guard status >= 0 else { throw FFmpegConstants.error("av_seek_frame", status, path: path) }
    avcodec_flush_buffers(codec)
    nextIndex = 0
    draining = false
  }

  /// The next frame out of the decoder, or `nil` at the end of the video.
  private func decodeNext() throws -> ColorImage? {
    guard let format, let codec, let packet, let decoded else { return nil }
    while true {
      let received = avcodec_receive_frame(codec, decoded)
      if received >= 0 {
        defer { av_frame_unref(decoded) }
        return try image(of: decoded)
      }
      if received == FFmpegConstants.endOfFile { return nil }
      guard received == FFmpegConstants.again else {
        throw FFmpegConstants.error("avcodec_receive_frame", received, path: path)
      }
      if draining { return nil }
      // The decoder wants input: feed it the next packet of our stream.
      let read = av_read_frame(format, packet)
      if read < 0 {
        guard read == FFmpegConstants.endOfFile else {
          throw FFmpegConstants.error("av_read_frame", read, path: path)
        }
        draining = true
        let sent = avcodec_send_packet(codec, nil)
        guard sent >= 0 || sent == FFmpegConstants.endOfFile else {
          throw FFmpegConstants.error("avcodec_send_packet", sent, path: path)
        }
        continue
      }
      defer { av_packet_unref(packet) }
      guard packet.pointee.stream_index == streamIndex else { continue }
      let sent = avcodec_send_packet(codec, packet)
      // AGAIN cannot happen here: the decoder just said it had no frame to give.
      guard sent >= 0 else { throw FFmpegConstants.error("avcodec_send_packet", sent, path: path) }
    }
  }

  /// Copies a decoded frame out: 4:2:0 planes as they are (Cb and Cr interleaved, as
  /// `YCbCrImage` holds them), anything else through libswscale to RGB.
  private func image(of frame: UnsafeMutablePointer<AVFrame>) throws -> ColorImage {
    let f = frame.pointee
    let w = Int(f.width)
    let h = Int(f.height)
    guard w > 0, h > 0 else { throw VideoError(.badFrame("\(w)×\(h) pixels"), path: path) }
    let pixelFormat = AVPixelFormat(rawValue: f.format)
    if pixelFormat == AV_PIX_FMT_YUV420P || pixelFormat == AV_PIX_FMT_YUVJ420P,
      let yPlane = f.data.0, let uPlane = f.data.1, let vPlane = f.data.2
    {
      let chromaWidth = (w + 1) / 2
      let chromaHeight = (h + 1) / 2
      var luma = [UInt8](repeating: 0, count: w * h)
      var chroma = [UInt8](repeating: 0, count: chromaWidth * 2 * chromaHeight)
      let yStride = Int(f.linesize.0)
      let uStride = Int(f.linesize.1)
      let vStride = Int(f.linesize.2)
      luma.withUnsafeMutableBufferPointer { out in
        for y in 0..<h {
          (out.baseAddress.unsafelyUnwrapped + y * w).update(from: yPlane + y * yStride, count: w)
        }
      }
      chroma.withUnsafeMutableBufferPointer { out in
        for y in 0..<chromaHeight {
          let row = out.baseAddress.unsafelyUnwrapped + y * chromaWidth * 2
          let u = uPlane + y * uStride
          let v = vPlane + y * vStride
          for x in 0..<chromaWidth {
            row[2 * x] = u[x]
            row[2 * x + 1] = v[x]
          }
        }
      }
      let full = pixelFormat == AV_PIX_FMT_YUVJ420P || f.color_range == AVCOL_RANGE_JPEG
      return .yCbCr420(
        YCbCrImage(width: w, height: h, range: full ? .full : .video, luma: luma, chroma: chroma))
    }
    scaler = sws_getCachedContext(
      scaler, f.width, f.height, pixelFormat, f.width, f.height, AV_PIX_FMT_RGB24, SWS_BILINEAR,
      nil, nil, nil)
    guard let scaler else {
      throw VideoError(
        .badFrame("libswscale cannot convert pixel format \(f.format) to RGB"), path: path)
    }
    var pixels = [UInt8](repeating: 0, count: w * h * 3)
    let sources: [UnsafePointer<UInt8>?] = [
      UnsafePointer(f.data.0), UnsafePointer(f.data.1), UnsafePointer(f.data.2),
      UnsafePointer(f.data.3),
    ]
    let strides: [Int32] = [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3]
    let rows = pixels.withUnsafeMutableBufferPointer { out -> Int32 in
      let targets: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
      let targetStrides: [Int32] = [Int32(w * 3), 0, 0, 0]
      return sws_scale(scaler, sources, strides, 0, f.height, targets, targetStrides)
    }
    guard rows == f.height else {
      throw VideoError(.badFrame("libswscale converted \(rows) of \(h) rows"), path: path)
    }
    return .rgb(RGBImage(width: w, height: h, pixels: pixels))
  }
}
