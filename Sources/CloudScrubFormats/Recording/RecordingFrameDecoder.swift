import CloudScrubCore

/// The fixed header of a frame chunk's payload, decoded and range-checked.
struct RecordingFrameHeader {
  var timestampSeconds: Double
  var pose: CameraPose
  var intrinsics: CameraIntrinsics
  var orientation: DeviceOrientation
  var sampleType: DepthSampleType
  var encoding: DepthEncoding
  var hasConfidence: Bool
  var colorForm: UInt8
  var colorRange: YCbCrRange
  var depthSize: (width: Int, height: Int, bytesPerRow: Int)
  var confidenceSize: (width: Int, height: Int, bytesPerRow: Int)
  var colorSize: (width: Int, height: Int, bytesPerRow: Int, chromaBytesPerRow: Int)
}

/// Turns a frame chunk's payload back into a `CapturedFrame`.
enum RecordingFrameDecoder {
  typealias Code = RecordingLayout.Code

  /// Reads the fixed header of frame `index` and leaves `cursor` at its first blob.
  static func decodeHeader(_ cursor: inout PayloadCursor, index: Int) throws -> RecordingFrameHeader
  {
    let start = cursor.offset
    let headerBytes = try cursor.int("frame header length")
    guard headerBytes >= RecordingLayout.Frame.fixedBytes,
      headerBytes % RecordingLayout.alignment == 0,
      headerBytes <= cursor.end - start
    else {
      throw cursor.malformed(
        "frame header length \(headerBytes) is not a multiple of 8 from "
          + "\(RecordingLayout.Frame.fixedBytes) to the payload's \(cursor.end - start) bytes",
        at: start)
    }
    let checksumOffset = cursor.offset
    let stored = try cursor.uint32("frame header checksum")
    let checked = UnsafeRawBufferPointer(
      rebasing: cursor.file[(start + RecordingLayout.Frame.checksummedFrom)..<(start + headerBytes)]
    )
    let computed = CRC32.checksum(checked)
    guard stored == computed else {
      throw cursor.malformed(
        "frame header CRC-32 mismatch: stored 0x\(String(stored, radix: 16, uppercase: true)), "
          + "computed 0x\(String(computed, radix: 16, uppercase: true))", at: checksumOffset)
    }
    let storedIndex = try cursor.int("frame index")
    guard storedIndex == index else {
      throw cursor.malformed("the frame header says frame \(storedIndex)", at: cursor.offset - 4)
    }
    _ = try cursor.uint32("reserved")
    let timestampSeconds = try cursor.float64("timestamp")
    var m = [Double]()
    for _ in 0..<16 { m.append(try cursor.float64("camera transform")) }
    let column = { (c: Int) in SIMD4(m[4 * c], m[4 * c + 1], m[4 * c + 2], m[4 * c + 3]) }
    let fx = try cursor.float64("fx")
    let fy = try cursor.float64("fy")
    let cx = try cursor.float64("cx")
    let cy = try cursor.float64("cy")
    let intrinsicsWidth = try cursor.int("intrinsics width")
    let intrinsicsHeight = try cursor.int("intrinsics height")

    func code<T>(_ field: String, _ decode: (UInt8) -> T?) throws -> T {
      let at = cursor.offset
      let raw = try cursor.uint8(field)
      guard let value = decode(raw) else {
        throw cursor.malformed("unknown \(field) code \(raw)", at: at)
      }
      return value
    }
    let axes = try code("camera axes") {
      [Code.axesOpenGL: CameraAxes.openGL, Code.axesOpenCV: .openCV][$0]
    }
    let orientation = try code("device orientation") { DeviceOrientation(rawValue: $0) }
    let sampleType = try code("depth sample type") {
      [Code.sampleFloat32: DepthSampleType.float32, Code.sampleFloat16: .float16][$0]
    }
    let encoding = try code("depth encoding") {
      [
        Code.encodingDepth: DepthEncoding.depthMeters,
        Code.encodingDisparity: .disparityInverseMeters,
      ][$0]
    }
    let hasConfidence = try code("confidence presence") { [0: false, 1: true][$0] }
    let colorForm = try code("colour form") { $0 <= Code.colorBGRA ? $0 : nil }
    let colorRange = try code("colour range") {
      [Code.rangeVideo: YCbCrRange.video, Code.rangeFull: .full][$0]
    }
    _ = try cursor.uint8("reserved")
    let depthSize = (
      try cursor.int("depth width"), try cursor.int("depth height"),
      try cursor.int("depth row stride")
    )
    let confidenceSize = (
      try cursor.int("confidence width"), try cursor.int("confidence height"),
      try cursor.int("confidence row stride")
    )
    let colorSize = (
      try cursor.int("colour width"), try cursor.int("colour height"),
      try cursor.int("colour row stride"), try cursor.int("chroma row stride")
    )
    // A later minor version may append fields: skip what this reader does not know.
    try cursor.skip(to: start + headerBytes, "frame header length")
    let intrinsics = CameraIntrinsics(
      fx: fx, fy: fy, cx: cx, cy: cy, width: intrinsicsWidth, height: intrinsicsHeight)
    let worldFromCamera = Transform3D(columns: (column(0), column(1), column(2), column(3)))
    if let problem = checkPlausible(
      timestampSeconds: timestampSeconds, worldFromCamera: worldFromCamera, intrinsics: intrinsics,
      depthSize: (depthSize.0, depthSize.1), confidenceSize: (confidenceSize.0, confidenceSize.1),
      colorSize: (colorSize.0, colorSize.1))
    {
      throw cursor.malformed("frame header: " + problem, at: start)
    }
    return RecordingFrameHeader(
      timestampSeconds: timestampSeconds,
      pose: CameraPose(worldFromCamera: worldFromCamera, axes: axes), intrinsics: intrinsics,
      orientation: orientation, sampleType: sampleType, encoding: encoding,
      hasConfidence: hasConfidence, colorForm: colorForm, colorRange: colorRange,
      depthSize: depthSize, confidenceSize: confidenceSize, colorSize: colorSize)
  }

  /// Why a frame header's numbers cannot be used, or nil when they can: a NaN or an
  /// infinity in the time, pose or intrinsics, or an image size past `ImageSizeLimits`
  /// (a depth map is required; confidence and colour sizes may be 0 when absent or
  /// unknown). The writer refuses the same frames, so that it never writes one a reader
  /// rejects.
  static func checkPlausible(
    timestampSeconds: Double, worldFromCamera: Transform3D, intrinsics: CameraIntrinsics,
    depthSize: (Int, Int), confidenceSize: (Int, Int), colorSize: (Int, Int)
  ) -> String? {
    guard timestampSeconds.isFinite else { return "the timestamp is \(timestampSeconds)" }
    guard worldFromCamera.isFinite else { return "the camera pose holds a NaN or an infinity" }
    if let problem = intrinsics.nonFiniteValue { return problem }
    if let problem = ImageSizeLimits.depthProblem(width: depthSize.0, height: depthSize.1) {
      return problem
    }
    if confidenceSize != (0, 0),
      let problem = ImageSizeLimits.depthProblem(width: confidenceSize.0, height: confidenceSize.1)
    {
      return "confidence: " + problem
    }
    if colorSize.0 > ImageSizeLimits.maxColorSide || colorSize.1 > ImageSizeLimits.maxColorSide {
      return "colour image size \(colorSize.0)×\(colorSize.1) is outside 0…"
        + "\(ImageSizeLimits.maxColorSide) pixels a side"
    }
    return nil
  }

  /// Decodes frame `index` from the payload `cursor` covers.
  static func decode(_ cursor: inout PayloadCursor, index: Int) throws -> (
    frame: CapturedFrame, orientation: DeviceOrientation
  ) {
    let header = try decodeHeader(&cursor, index: index)
    let (width, height, stride) = header.depthSize
    let depthBytes = try blob(&cursor, "depth map") {
      checkPlane(
        "depth map", width: width, height: height, bytesPerRow: stride,
        bytesPerPixel: header.sampleType == .float32 ? 4 : 2, byteCount: $0)
    }
    let depth = DepthMap(
      width: width, height: height, bytesPerRow: stride, sampleType: header.sampleType,
      encoding: header.encoding, bytes: depthBytes)
    var confidence: ConfidenceMap?
    if header.hasConfidence {
      let (width, height, stride) = header.confidenceSize
      let values = try blob(&cursor, "confidence map") {
        checkPlane(
          "confidence map", width: width, height: height, bytesPerRow: stride, bytesPerPixel: 1,
          byteCount: $0)
      }
      confidence = ConfidenceMap(width: width, height: height, bytesPerRow: stride, values: values)
    }
    let color = try decodeColor(&cursor, header)
    let frame = CapturedFrame(
      timestampSeconds: header.timestampSeconds, depth: depth, confidence: confidence, color: color,
      intrinsics: header.intrinsics, pose: header.pose)
    return (frame, header.orientation)
  }

  private static func decodeColor(_ cursor: inout PayloadCursor, _ header: RecordingFrameHeader)
    throws
    -> ColorImage?
  {
    let (width, height, stride, chromaStride) = header.colorSize
    switch header.colorForm {
    case Code.colorJPEG:
      return .jpeg(try blob(&cursor, "JPEG colour image") { $0 > 0 ? nil : "the JPEG is empty" })
    case Code.colorRGB:
      let pixels = try blob(&cursor, "RGB colour image") { count in
        let total = stride.multipliedReportingOverflow(by: height)
        return checkPlane(
          "RGB colour image", width: width, height: height, bytesPerRow: stride, bytesPerPixel: 3,
          byteCount: count)
          ?? (stride == width * 3 && !total.overflow && count == total.partialValue
            ? nil : "RGB rows must be packed: \(count) bytes, \(stride) a row")
      }
      return .rgb(RGBImage(width: width, height: height, pixels: pixels))
    case Code.colorYCbCr420:
      let luma = try blob(&cursor, "luma plane") {
        checkPlane(
          "luma plane", width: width, height: height, bytesPerRow: stride, bytesPerPixel: 1,
          byteCount: $0)
      }
      let pairs = chromaSize(width: width, height: height)
      let chroma = try blob(&cursor, "chroma plane") {
        checkPlane(
          "chroma plane", width: pairs.width, height: pairs.height, bytesPerRow: chromaStride,
          bytesPerPixel: 2, byteCount: $0)
      }
      return .yCbCr420(
        YCbCrImage(
          width: width, height: height, range: header.colorRange, luma: luma,
          lumaBytesPerRow: stride, chroma: chroma, chromaBytesPerRow: chromaStride))
    case Code.colorBGRA:
      let bytes = try blob(&cursor, "BGRA colour image") {
        checkPlane(
          "BGRA colour image", width: width, height: height, bytesPerRow: stride, bytesPerPixel: 4,
          byteCount: $0)
      }
      return .bgra(BGRAImage(width: width, height: height, bytesPerRow: stride, bytes: bytes))
    default:
      return nil
    }
  }

  /// Reads a blob's length, checks it against the payload and against `problem` (what
  /// the header's size and stride need), then copies its bytes and skips its padding.
  private static func blob(
    _ cursor: inout PayloadCursor, _ name: String, problem: (Int) -> String?
  ) throws -> [UInt8] {
    let at = cursor.offset
    let stored = try cursor.uint64("\(name) length")
    guard stored <= UInt64(cursor.remaining) else {
      throw cursor.malformed(
        "\(name) claims \(stored) bytes, but only \(cursor.remaining) remain in the payload", at: at
      )
    }
    let count = Int(stored)
    if let reason = problem(count) { throw cursor.malformed(reason, at: at) }
    let bytes = try cursor.bytes(count, name)
    let padded = RecordingLayout.aligned(cursor.offset) ?? cursor.end
    try cursor.skip(to: min(padded, cursor.end), "\(name) padding")
    return bytes
  }
}
