import CloudScrubCore

/// Builds a frame chunk's payload from a `CapturedFrame`, checking first that every
/// size, stride and blob fits what the format can hold and what a reader will accept.
enum RecordingFrameEncoder {
  /// Appends frame `index`'s payload to `payload`, whose length must be a multiple of 8
  /// (the blobs' padding counts from the payload's start).
  ///
  /// - Throws: `RecordingFormatError.invalidFrame` when the frame cannot be stored (an
  ///   image shorter than its size and stride claim, a size beyond 32 bits).
  static func encode(
    _ frame: CapturedFrame, orientation: DeviceOrientation, index: Int, into payload: inout [UInt8]
  ) throws {
    func invalid(_ reason: String) -> RecordingFormatError {
      .invalidFrame(frame: index, reason: reason)
    }
    guard index <= UInt32.max else { throw invalid("a recording holds at most 2^32 frames") }
    let depth = frame.depth
    let sampleBytes = depth.sampleType == .float32 ? 4 : 2
    if let problem = checkPlane(
      "depth map", width: depth.width, height: depth.height, bytesPerRow: depth.bytesPerRow,
      bytesPerPixel: sampleBytes, byteCount: depth.bytes.count)
    {
      throw invalid(problem)
    }
    if let confidence = frame.confidence,
      let problem = checkPlane(
        "confidence map", width: confidence.width, height: confidence.height,
        bytesPerRow: confidence.bytesPerRow, bytesPerPixel: 1, byteCount: confidence.values.count)
    {
      throw invalid(problem)
    }
    let color = try colorLayout(frame.color, invalid: invalid)
    let intrinsics = frame.intrinsics
    guard UInt32(exactly: intrinsics.width) != nil, UInt32(exactly: intrinsics.height) != nil else {
      throw invalid("intrinsics size \(intrinsics.width)×\(intrinsics.height) is out of range")
    }

    if let problem = RecordingFrameDecoder.checkPlausible(
      timestampSeconds: frame.timestampSeconds, worldFromCamera: frame.pose.worldFromCamera,
      intrinsics: intrinsics, depthSize: (depth.width, depth.height),
      confidenceSize: frame.confidence.map { ($0.width, $0.height) } ?? (0, 0),
      colorSize: (color.width, color.height))
    {
      throw invalid(problem)
    }

    assert(payload.count % RecordingLayout.alignment == 0, "payload starts aligned")
    let start = payload.count
    payload.appendLittleEndian(UInt32(RecordingLayout.Frame.fixedBytes))
    payload.appendLittleEndian(UInt32(0))  // header checksum, filled in below
    payload.appendLittleEndian(UInt32(index))
    payload.appendLittleEndian(UInt32(0))
    payload.appendLittleEndian(frame.timestampSeconds)
    let m = frame.pose.worldFromCamera.columns
    for column in [m.0, m.1, m.2, m.3] {
      for row in 0..<4 { payload.appendLittleEndian(column[row]) }
    }
    for value in [intrinsics.fx, intrinsics.fy, intrinsics.cx, intrinsics.cy] {
      payload.appendLittleEndian(value)
    }
    payload.appendLittleEndian(UInt32(intrinsics.width))
    payload.appendLittleEndian(UInt32(intrinsics.height))
    typealias Code = RecordingLayout.Code
    payload.append(frame.pose.axes == .openGL ? Code.axesOpenGL : Code.axesOpenCV)
    payload.append(orientation.rawValue)
    payload.append(depth.sampleType == .float32 ? Code.sampleFloat32 : Code.sampleFloat16)
    payload.append(depth.encoding == .depthMeters ? Code.encodingDepth : Code.encodingDisparity)
    payload.append(frame.confidence == nil ? 0 : 1)
    payload.append(color.form)
    payload.append(color.range)
    payload.append(0)
    for value in [depth.width, depth.height, depth.bytesPerRow] {
      payload.appendLittleEndian(UInt32(value))
    }
    let confidenceSize =
      frame.confidence.map { [$0.width, $0.height, $0.bytesPerRow] } ?? [0, 0, 0]
    for value in confidenceSize { payload.appendLittleEndian(UInt32(value)) }
    for value in [color.width, color.height, color.bytesPerRow, color.chromaBytesPerRow] {
      payload.appendLittleEndian(UInt32(value))
    }
    assert(payload.count - start == RecordingLayout.Frame.fixedBytes, "fixed frame header layout")
    let headerChecksum = payload.withUnsafeBytes {
      CRC32.checksum(
        UnsafeRawBufferPointer(rebasing: $0[(start + RecordingLayout.Frame.checksummedFrom)...]))
    }
    payload.storeLittleEndian(headerChecksum, at: start + RecordingLayout.Frame.headerChecksum)

    appendBlob(depth.bytes, to: &payload)
    if let confidence = frame.confidence { appendBlob(confidence.values, to: &payload) }
    for plane in color.planes { appendBlob(plane, to: &payload) }
  }

  private static func appendBlob(_ blob: [UInt8], to payload: inout [UInt8]) {
    payload.appendLittleEndian(UInt64(blob.count))
    payload.append(contentsOf: blob)
    payload.padToAlignment()
  }

  // MARK: - Colour

  /// A colour image's header fields and the blobs that follow the frame header.
  struct ColorLayout {
    var form = RecordingLayout.Code.colorNone
    var range: UInt8 = 0
    var width = 0
    var height = 0
    var bytesPerRow = 0
    var chromaBytesPerRow = 0
    var planes: [[UInt8]] = []
  }

  private static func colorLayout(
    _ color: ColorImage?, invalid: (String) -> RecordingFormatError
  ) throws -> ColorLayout {
    typealias Code = RecordingLayout.Code
    var layout = ColorLayout()
    let problem: String?
    switch color {
    case nil:
      return layout
    case .jpeg(let bytes):
      let size = JPEGSize.read(bytes)
      layout = ColorLayout(
        form: Code.colorJPEG, width: size?.width ?? 0, height: size?.height ?? 0, planes: [bytes])
      problem = bytes.isEmpty ? "the JPEG colour image is empty" : nil
    case .rgb(let image):
      // Sizes from a mutated image may be anything: multiply with overflow checks.
      let stride = image.width.multipliedReportingOverflow(by: 3)
      let total = image.height.multipliedReportingOverflow(by: stride.partialValue)
      layout = ColorLayout(
        form: Code.colorRGB, width: image.width, height: image.height,
        bytesPerRow: stride.partialValue, planes: [image.pixels])
      problem =
        checkPlane(
          "RGB colour image", width: image.width, height: image.height,
          bytesPerRow: stride.overflow ? -1 : stride.partialValue, bytesPerPixel: 3,
          byteCount: image.pixels.count)
        ?? (!total.overflow && image.pixels.count == total.partialValue
          ? nil
          : "RGB colour image has \(image.pixels.count) bytes for \(image.width)×\(image.height)")
    case .yCbCr420(let image):
      layout = ColorLayout(
        form: Code.colorYCbCr420, range: image.range == .video ? Code.rangeVideo : Code.rangeFull,
        width: image.width, height: image.height, bytesPerRow: image.lumaBytesPerRow,
        chromaBytesPerRow: image.chromaBytesPerRow, planes: [image.luma, image.chroma])
      let chroma = chromaSize(width: image.width, height: image.height)
      problem =
        checkPlane(
          "luma plane", width: image.width, height: image.height,
          bytesPerRow: image.lumaBytesPerRow, bytesPerPixel: 1, byteCount: image.luma.count)
        ?? checkPlane(
          "chroma plane", width: chroma.width, height: chroma.height,
          bytesPerRow: image.chromaBytesPerRow, bytesPerPixel: 2, byteCount: image.chroma.count)
    case .bgra(let image):
      layout = ColorLayout(
        form: Code.colorBGRA, width: image.width, height: image.height,
        bytesPerRow: image.bytesPerRow, planes: [image.bytes])
      problem = checkPlane(
        "BGRA colour image", width: image.width, height: image.height,
        bytesPerRow: image.bytesPerRow, bytesPerPixel: 4, byteCount: image.bytes.count)
    }
    if let problem { throw invalid(problem) }
    return layout
  }
}

// MARK: - Checks shared with the reader

/// The size of a 4:2:0 image's interleaved Cb/Cr plane, in Cb/Cr pairs.
func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
  ((width + 1) / 2, (height + 1) / 2)
}

/// What is wrong with an image plane's size, stride and byte count, or nil when they
/// fit: sizes and stride in 1…2^32−1 (width and height at least 1), the stride covers a
/// row, and the bytes cover every row up to the last pixel.
func checkPlane(
  _ name: String, width: Int, height: Int, bytesPerRow: Int, bytesPerPixel: Int, byteCount: Int
) -> String? {
  let limit = Int(UInt32.max)
  guard (1...limit).contains(width), (1...limit).contains(height),
    (1...limit).contains(bytesPerRow)
  else {
    return "\(name) size \(width)×\(height) with \(bytesPerRow) bytes a row is out of range"
  }
  guard bytesPerRow >= width * bytesPerPixel else {
    return "\(name) has \(bytesPerRow) bytes a row, less than its \(width) pixels need"
  }
  let (rows, overflow) = bytesPerRow.multipliedReportingOverflow(by: height - 1)
  let needed = rows.addingReportingOverflow(width * bytesPerPixel)
  guard !overflow, !needed.overflow, byteCount >= needed.partialValue else {
    return "\(name) \(width)×\(height) with \(bytesPerRow) bytes a row has \(byteCount) bytes, "
      + "too few"
  }
  return nil
}
