import COpenEXR
import CloudScrubCore

/// Reads one channel of a flat scanline OpenEXR image as a depth map in metres, with
/// OpenEXR's C core library.
///
/// Record3D's "EXR + JPG" export writes one HALF channel named `R`, ZIP-compressed; the
/// reader takes HALF or FLOAT samples with any compression the core library decodes, and
/// always returns tightly packed little-endian Float32 (`DepthMap.sampleType == .float32`,
/// `encoding == .depthMeters`). It holds no state: reads may run on several threads.
public struct EXRDepthReader: Sendable {
  /// The channel that holds the depth.
  public var channelName: String

  private static let magic: [UInt8] = [0x76, 0x2F, 0x31, 0x01]

  public init(channelName: String = "R") {
    self.channelName = channelName
  }

  /// Reads the depth channel of the EXR file at `path`.
  ///
  /// - Throws: `FileError` when the file cannot be opened or mapped; `EXRError` when it
  ///   is not an EXR, lacks the channel, or is corrupt or truncated.
  public func readDepth(path: String) throws -> DepthMap {
    let file = try MappedFile(path: path)
    return try withExtendedLifetime(file) {
      do {
        let depth = try readDepth(bytes: file.bytes, path: path)
        try file.checkIntact()
        return depth
      } catch {
        try file.checkIntact()
        throw error
      }
    }
  }

  /// Reads the depth channel of an EXR image held in memory; `path` only names the bytes
  /// in errors.
  ///
  /// - Throws: `EXRError` when the bytes are not an EXR, lack the channel, or are corrupt
  ///   or truncated.
  public func readDepth(bytes: UnsafeRawBufferPointer, path: String) throws -> DepthMap {
    guard bytes.count >= Self.magic.count, bytes.prefix(Self.magic.count).elementsEqual(Self.magic)
    else { throw EXRError(.notEXR(byteCount: bytes.count), path: path) }
    let stream = EXRByteStream(bytes: bytes, path: path)
    return try stream.withReadContext { context in
      let layout = try Layout(context, channelName: channelName, path: path)
      var meters = [Float](repeating: 0, count: layout.width * layout.height)
      try meters.withUnsafeMutableBytes { output in
        try decodeChunks(context, layout: layout, into: output, stream: stream)
      }
      #if _endian(big)
        meters = meters.map { Float(bitPattern: $0.bitPattern.byteSwapped) }
      #endif
      return DepthMap(width: layout.width, height: layout.height, meters: meters)
    }
  }

  // MARK: - Decoding

  /// Decodes every scanline chunk of part 0 into `output` (Float32 rows of `width`).
  private func decodeChunks(
    _ context: exr_context_t, layout: Layout, into output: UnsafeMutableRawBufferPointer,
    stream: EXRByteStream
  ) throws {
    guard let base = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
    // The pipeline points into itself (its small channel store): keep it at one address.
    let decoder = UnsafeMutablePointer<exr_decode_pipeline_t>.allocate(capacity: 1)
    decoder.initialize(to: exr_decode_pipeline_t())
    var initialized = false
    defer {
      if initialized { exr_decoding_destroy(context, decoder) }
      decoder.deallocate()
    }
    let lineBytes = layout.width * 4
    for chunkY in stride(
      from: layout.minY, to: layout.minY + layout.height, by: layout.linesPerChunk)
    {
      let stage = "reading the scanline chunk at y = \(chunkY)"
      var chunk = exr_chunk_info_t()
      try check(exr_read_scanline_chunk_info(context, 0, Int32(chunkY), &chunk), stage, stream)
      let firstRow = Int(chunk.start_y) - layout.minY
      guard firstRow >= 0, firstRow + Int(chunk.height) <= layout.height,
        Int(chunk.width) == layout.width
      else {
        throw EXRError(
          .corrupt(stage: stage, message: "chunk lies outside the data window"), path: stream.path)
      }
      if initialized {
        try check(exr_decoding_update(context, 0, &chunk, decoder), stage, stream)
      } else {
        try check(exr_decoding_initialize(context, 0, &chunk, decoder), stage, stream)
        initialized = true
      }
      for index in 0..<Int(decoder.pointee.channel_count) {
        let channel = decoder.pointee.channels + index
        guard let name = channel.pointee.channel_name, String(cString: name) == channelName else {
          channel.pointee.decode_to_ptr = nil
          continue
        }
        channel.pointee.decode_to_ptr = base + firstRow * lineBytes
        channel.pointee.user_pixel_stride = 4
        channel.pointee.user_line_stride = Int32(lineBytes)
        channel.pointee.user_bytes_per_element = 4
        channel.pointee.user_data_type = UInt16(EXR_PIXEL_FLOAT.rawValue)
      }
      if chunkY == layout.minY {
        try check(exr_decoding_choose_default_routines(context, 0, decoder), stage, stream)
      }
      try check(exr_decoding_run(context, 0, decoder), stage, stream)
    }
  }

  private func check(_ status: exr_result_t, _ stage: String, _ stream: EXRByteStream) throws {
    guard status == EXR_ERR_SUCCESS.rawValue else { throw stream.error(status, stage: stage) }
  }
}

// MARK: - Header

extension EXRDepthReader {
  /// What the reader needs from part 0's header, checked.
  struct Layout {
    var minY: Int
    var width: Int
    var height: Int
    var linesPerChunk: Int

    init(_ context: exr_context_t, channelName: String, path: String) throws {
      func fail(_ reason: EXRError.Reason) -> EXRError { EXRError(reason, path: path) }
      func corrupt(_ status: exr_result_t, _ what: String) -> EXRError {
        let message = exr_get_default_error_message(status).map { String(cString: $0) }
        return fail(.corrupt(stage: "reading the \(what)", message: message ?? "error \(status)"))
      }
      var storage = EXR_STORAGE_SCANLINE
      var status = exr_get_storage(context, 0, &storage)
      guard status == EXR_ERR_SUCCESS.rawValue else { throw corrupt(status, "storage type") }
      guard storage == EXR_STORAGE_SCANLINE else {
        let names = [EXR_STORAGE_TILED: "tiled", EXR_STORAGE_DEEP_SCANLINE: "deep scanline"]
        throw fail(.unsupportedStorage(names[storage] ?? "deep tiled"))
      }

      var window = exr_attr_box2i_t()
      status = exr_get_data_window(context, 0, &window)
      guard status == EXR_ERR_SUCCESS.rawValue else { throw corrupt(status, "data window") }
      let width = Int(window.max.x) - Int(window.min.x) + 1
      let height = Int(window.max.y) - Int(window.min.y) + 1
      // A corrupt header can claim billions of pixels, and a few kilobytes of chunks
      // can claim to fill any window: only a depth map's plausible size is allocated.
      if let problem = ImageSizeLimits.depthProblem(width: width, height: height) {
        throw fail(.unsupportedSize(problem))
      }

      var list: UnsafePointer<exr_attr_chlist_t>?
      status = exr_get_channels(context, 0, &list)
      guard status == EXR_ERR_SUCCESS.rawValue, let list else { throw corrupt(status, "channels") }
      let entries = (0..<Int(list.pointee.num_channels)).compactMap { list.pointee.entries?[$0] }
      let names = entries.map { Self.name(of: $0) }
      guard let index = names.firstIndex(of: channelName) else {
        throw fail(.missingChannel(name: channelName, available: names))
      }
      let entry = entries[index]
      guard entry.pixel_type == EXR_PIXEL_HALF || entry.pixel_type == EXR_PIXEL_FLOAT else {
        throw fail(.unsupportedPixelType(channel: channelName, type: "UINT"))
      }
      guard entry.x_sampling == 1, entry.y_sampling == 1 else {
        throw fail(
          .subsampledChannel(
            name: channelName, xSampling: Int(entry.x_sampling), ySampling: Int(entry.y_sampling)))
      }

      var lines: Int32 = 0
      status = exr_get_scanlines_per_chunk(context, 0, &lines)
      guard status == EXR_ERR_SUCCESS.rawValue, lines > 0 else {
        throw corrupt(status, "scanlines per chunk")
      }
      self.minY = Int(window.min.y)
      self.width = width
      self.height = height
      self.linesPerChunk = Int(lines)
    }

    private static func name(of entry: exr_attr_chlist_entry_t) -> String {
      guard let characters = entry.name.str, entry.name.length > 0 else { return "" }
      let bytes = UnsafeRawBufferPointer(start: characters, count: Int(entry.name.length))
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
