/// Looks up the colour that belongs to a depth pixel in a frame's colour image,
/// whatever its form and resolution.
///
/// Depth pixel centre (u + 0.5, v + 0.5) on a `depthWidth` × `depthHeight` grid maps to
/// the colour pixel under the same point of the image plane, assuming both images cover
/// the same field of view (as ARKit's depth and captured image do).
struct ColorSampler {
  private enum Source {
    case rgb(RGBImage)
    case yCbCr(YCbCrImage)
    case bgra(BGRAImage)
  }

  private let source: Source
  private let scaleX: Double
  private let scaleY: Double
  private let width: Int
  private let height: Int

  /// A sampler for `image`, or `nil` when the frame has no colour. JPEG colour is decoded
  /// with `decoder` at the scale closest to the depth resolution.
  init?(
    _ image: ColorImage?, depthWidth: Int, depthHeight: Int, decoder: (any ColorDecoder)?
  ) throws {
    switch image {
    case nil:
      return nil
    case .jpeg(let bytes):
      guard let decoder else { throw UnprojectionError.noJPEGDecoder }
      source = .rgb(
        try decoder.decodeJPEG(bytes, preferredWidth: depthWidth, preferredHeight: depthHeight))
    case .rgb(let rgb): source = .rgb(rgb)
    case .yCbCr420(let ycbcr): source = .yCbCr(ycbcr)
    case .bgra(let bgra): source = .bgra(bgra)
    }
    switch source {
    case .rgb(let i): (width, height) = (i.width, i.height)
    case .yCbCr(let i): (width, height) = (i.width, i.height)
    case .bgra(let i): (width, height) = (i.width, i.height)
    }
    guard width > 0, height > 0 else { return nil }
    scaleX = Double(width) / Double(depthWidth)
    scaleY = Double(height) / Double(depthHeight)
  }

  /// The colour column under depth column `u`.
  func column(u: Int) -> Int { min(Int((Double(u) + 0.5) * scaleX), width - 1) }

  /// The colour row under depth row `v`.
  func row(v: Int) -> Int { min(Int((Double(v) + 0.5) * scaleY), height - 1) }

  /// The colour under depth pixel (u, v).
  func color(u: Int, v: Int) -> RGB8 { color(x: column(u: u), y: row(v: v)) }

  /// The colour of colour pixel (x, y).
  @inline(__always)
  func color(x: Int, y: Int) -> RGB8 {
    switch source {
    case .rgb(let image):
      let i = (y * image.width + x) * 3
      return RGB8(image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    case .bgra(let image):
      let i = y * image.bytesPerRow + x * 4
      return RGB8(image.bytes[i + 2], image.bytes[i + 1], image.bytes[i])
    case .yCbCr(let image):
      let luma = image.luma[y * image.lumaBytesPerRow + x]
      let c = (y / 2) * image.chromaBytesPerRow + (x / 2) * 2
      return Self.rgb(y: luma, cb: image.chroma[c], cr: image.chroma[c + 1], range: image.range)
    }
  }

  /// BT.601 YCbCr to RGB, clamped: video range (Y 16…235, chroma 16…240) or full
  /// range (all 0…255).
  static func rgb(y: UInt8, cb: UInt8, cr: UInt8, range: YCbCrRange) -> RGB8 {
    let b = Double(cb) - 128
    let r = Double(cr) - 128
    func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
    switch range {
    case .video:
      let l = 1.164 * (Double(y) - 16)
      return RGB8(clamp(l + 1.596 * r), clamp(l - 0.392 * b - 0.813 * r), clamp(l + 2.017 * b))
    case .full:
      let l = Double(y)
      return RGB8(
        clamp(l + 1.402 * r), clamp(l - 0.344136 * b - 0.714136 * r), clamp(l + 1.772 * b))
    }
  }
}

/// What can stop a frame from becoming points.
public enum UnprojectionError: Error, Equatable, CustomStringConvertible, Sendable {
  case noJPEGDecoder
  case incompleteDepth(width: Int, height: Int, bytes: Int)
  case incompleteConfidence(width: Int, height: Int, bytes: Int)
  case confidenceSizeMismatch(depth: String, confidence: String)
  case invalidIntrinsics

  public var description: String {
    switch self {
    case .noJPEGDecoder: "the frame's colour is JPEG but no JPEG decoder was given"
    case .incompleteDepth(let w, let h, let n): "depth map of \(w)×\(h) holds only \(n) bytes"
    case .incompleteConfidence(let w, let h, let n):
      "confidence map of \(w)×\(h) holds only \(n) bytes"
    case .confidenceSizeMismatch(let depth, let confidence):
      "confidence map is \(confidence) but the depth map is \(depth)"
    case .invalidIntrinsics: "intrinsics with a zero or non-finite focal length or size"
    }
  }
}
