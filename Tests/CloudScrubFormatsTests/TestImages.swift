import COpenEXR
import CTurboJPEG
import CloudScrubCore
import Foundation

/// Test inputs made on the fly: JPEGs through TurboJPEG's compressor and EXRs through
/// OpenEXR's core writer, so the tests need no binary fixtures.
enum TestImages {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// An RGB gradient: red grows along x, green along y, blue is constant.
  static func gradient(width: Int, height: Int) -> RGBImage {
    var pixels = [UInt8]()
    pixels.reserveCapacity(width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        pixels.append(UInt8(x * 255 / max(width - 1, 1)))
        pixels.append(UInt8(y * 255 / max(height - 1, 1)))
        pixels.append(128)
      }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  /// `image` as a baseline JPEG, 4:4:4 unless `subsampling` says otherwise.
  static func jpeg(_ image: RGBImage, quality: Int32 = 95, subsampling: TJSAMP = TJSAMP_444)
    throws -> [UInt8]
  {
    guard let handle = tjInitCompress() else { throw Failure(description: "tjInitCompress") }
    defer { tjDestroy(handle) }
    var output: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      tjCompress2(
        handle, pixels.baseAddress, Int32(image.width), Int32(image.width * 3),
        Int32(image.height), Int32(TJPF_RGB.rawValue), &output, &size,
        Int32(subsampling.rawValue), quality, 0)
    }
    defer { tjFree(output) }
    guard status == 0, let output else {
      throw Failure(description: String(cString: tjGetErrorStr2(handle)))
    }
    return Array(UnsafeBufferPointer(start: output, count: Int(size)))
  }

  /// One channel of an EXR image to write: its samples as Float, stored as `type`.
  struct EXRChannel {
    var name: String
    var type: exr_pixel_type_t
    var values: [Float]
  }

  /// Writes a flat scanline EXR with `channels` (each `width × height` samples) to `path`.
  ///
  /// `origin` moves the data window's top-left corner. `headerOnly` stops after the
  /// header (enough for a reader that must refuse the file before any pixel); `tiled`
  /// makes a tiled header, and implies it.
  static func writeEXR(
    path: String, width: Int, height: Int, channels: [EXRChannel],
    compression: exr_compression_t = EXR_COMPRESSION_ZIP, origin: (x: Int, y: Int) = (0, 0),
    tiled: Bool = false, headerOnly: Bool = false
  ) throws {
    // Written to memory, then to the file: the library deletes a file it could not
    // finish, and a header-only file is unfinished.
    let sink = EXRMemorySink()
    try withExtendedLifetime(sink) {
      try encodeEXR(
        sink: sink, width: width, height: height, channels: channels, compression: compression,
        origin: origin, tiled: tiled, headerOnly: headerOnly || tiled)
    }
    try Data(sink.bytes).write(to: URL(fileURLWithPath: path))
  }

  private static func encodeEXR(
    sink: EXRMemorySink, width: Int, height: Int, channels: [EXRChannel],
    compression: exr_compression_t, origin: (x: Int, y: Int), tiled: Bool, headerOnly: Bool
  ) throws {
    func check(_ status: exr_result_t, _ what: String) throws {
      guard status == EXR_ERR_SUCCESS.rawValue else {
        let message = exr_get_default_error_message(status).map { String(cString: $0) } ?? ""
        throw Failure(description: "\(what): \(message)")
      }
    }
    var initializer = exr_context_initializer_t()
    initializer.size = MemoryLayout<exr_context_initializer_t>.size
    initializer.user_data = Unmanaged.passUnretained(sink).toOpaque()
    initializer.write_fn = { _, userData, buffer, size, offset, _ in
      guard let userData, let buffer else { return -1 }
      let sink = Unmanaged<EXRMemorySink>.fromOpaque(userData).takeUnretainedValue()
      sink.write(UnsafeRawBufferPointer(start: buffer, count: Int(size)), at: Int(offset))
      return Int64(size)
    }
    initializer.zip_level = -2
    initializer.dwa_quality = -1
    var context: exr_context_t?
    try check(exr_start_write(&context, "test.exr", EXR_WRITE_FILE_DIRECTLY, &initializer), "start")
    defer { exr_finish(&context) }
    guard let context else { throw Failure(description: "no context") }
    var part: Int32 = 0
    let storage = tiled ? EXR_STORAGE_TILED : EXR_STORAGE_SCANLINE
    try check(exr_add_part(context, "depth", storage, &part), "part")
    try check(
      exr_initialize_required_attr_simple(
        context, part, Int32(width), Int32(height), compression), "attributes")
    var window = exr_attr_box2i_t()
    window.min.x = Int32(origin.x)
    window.min.y = Int32(origin.y)
    window.max.x = Int32(origin.x + width - 1)
    window.max.y = Int32(origin.y + height - 1)
    try check(exr_set_data_window(context, part, &window), "data window")
    if tiled {
      try check(
        exr_set_tile_descriptor(context, part, 16, 16, EXR_TILE_ONE_LEVEL, EXR_TILE_ROUND_DOWN),
        "tiles")
    }
    for channel in channels {
      try check(
        exr_add_channel(context, part, channel.name, channel.type, EXR_PERCEPTUALLY_LINEAR, 1, 1),
        "channel")
    }
    try check(exr_write_header(context), "header")
    if headerOnly { return }
    var lines: Int32 = 0
    try check(exr_get_scanlines_per_chunk(context, part, &lines), "lines")

    // Samples go in as FLOAT; the encoder converts to each channel's stored type. The
    // planes are copied to buffers whose addresses stay valid while the encoder reads.
    let planes = channels.map { channel in
      let plane = UnsafeMutableBufferPointer<Float>.allocate(capacity: channel.values.count)
      _ = plane.initialize(from: channel.values)
      return plane
    }
    defer { planes.forEach { $0.deallocate() } }
    let encoder = UnsafeMutablePointer<exr_encode_pipeline_t>.allocate(capacity: 1)
    encoder.initialize(to: exr_encode_pipeline_t())
    defer { encoder.deallocate() }
    var initialized = false
    defer { if initialized { exr_encoding_destroy(context, encoder) } }
    for y in stride(from: 0, to: height, by: Int(lines)) {
      var chunk = exr_chunk_info_t()
      try check(
        exr_write_scanline_chunk_info(context, part, Int32(origin.y + y), &chunk), "chunk")
      if initialized {
        try check(exr_encoding_update(context, part, &chunk, encoder), "update")
      } else {
        try check(exr_encoding_initialize(context, part, &chunk, encoder), "initialize")
        initialized = true
      }
      for index in 0..<Int(encoder.pointee.channel_count) {
        let info = encoder.pointee.channels + index
        let name = String(cString: info.pointee.channel_name)
        guard let plane = channels.firstIndex(where: { $0.name == name }) else { continue }
        let start = UnsafeRawPointer(planes[plane].baseAddress)?.assumingMemoryBound(to: UInt8.self)
        info.pointee.encode_from_ptr = start.map { $0 + y * width * 4 }
        info.pointee.user_pixel_stride = 4
        info.pointee.user_line_stride = Int32(width * 4)
        info.pointee.user_bytes_per_element = 4
        info.pointee.user_data_type = UInt16(EXR_PIXEL_FLOAT.rawValue)
      }
      if y == 0 {
        try check(exr_encoding_choose_default_routines(context, part, encoder), "routines")
      }
      try check(exr_encoding_run(context, part, encoder), "run")
    }
  }

  /// Bytes written at offsets, as `pwrite` would write them to a file.
  final class EXRMemorySink {
    var bytes = [UInt8]()

    func write(_ data: UnsafeRawBufferPointer, at offset: Int) {
      if bytes.count < offset + data.count {
        bytes += [UInt8](repeating: 0, count: offset + data.count - bytes.count)
      }
      bytes.replaceSubrange(offset..<offset + data.count, with: data)
    }
  }

  /// A value stored as HALF and read back.
  static func halfRounded(_ value: Float) -> Float { Float(Float16(value)) }
}
