/// Looks up the colour that belongs to a depth pixel in a frame's colour image,
/// whatever its form and resolution.
///
/// Depth pixel centre (u + 0.5, v + 0.5) on a `depthWidth` × `depthHeight` grid maps to
/// the colour pixel under the same point of the image plane, assuming both images cover
/// the same field of view (as ARKit's depth and captured image do).
struct ColorSampler {
  fileprivate enum Kind {
    case rgb
    case bgra
    case yCbCr(YCbCrRange)
  }

  private let kind: Kind
  /// RGB pixels, BGRA bytes, or the luma plane.
  private let plane: [UInt8]
  private let planeBytesPerRow: Int
  /// The interleaved Cb Cr plane of YCbCr images.
  private let chroma: [UInt8]
  private let chromaBytesPerRow: Int
  private let scaleX: Double
  private let scaleY: Double
  private let width: Int
  private let height: Int

  /// A sampler for `image`, or `nil` when the frame has no colour. JPEG colour is decoded
  /// with `decoder` at the scale closest to the depth resolution.
  ///
  /// - Throws: `UnprojectionError.incompleteColor` when a plane is shorter than its size
  ///   and stride say, and the decoder's error for JPEG it cannot decode.
  init?(
    _ image: ColorImage?, depthWidth: Int, depthHeight: Int, decoder: (any ColorDecoder)?
  ) throws {
    var chroma: [UInt8] = []
    var chromaBytesPerRow = 0
    switch image {
    case nil:
      return nil
    case .jpeg(let bytes):
      guard let decoder else { throw UnprojectionError.noJPEGDecoder }
      let rgb = try decoder.decodeJPEG(
        bytes, preferredWidth: depthWidth, preferredHeight: depthHeight)
      (kind, plane, planeBytesPerRow) = (.rgb, rgb.pixels, rgb.width * 3)
      (width, height) = (rgb.width, rgb.height)
    case .rgb(let rgb):
      (kind, plane, planeBytesPerRow) = (.rgb, rgb.pixels, rgb.width * 3)
      (width, height) = (rgb.width, rgb.height)
    case .bgra(let bgra):
      (kind, plane, planeBytesPerRow) = (.bgra, bgra.bytes, bgra.bytesPerRow)
      (width, height) = (bgra.width, bgra.height)
    case .yCbCr420(let ycbcr):
      (kind, plane, planeBytesPerRow) = (.yCbCr(ycbcr.range), ycbcr.luma, ycbcr.lumaBytesPerRow)
      (chroma, chromaBytesPerRow) = (ycbcr.chroma, ycbcr.chromaBytesPerRow)
      (width, height) = (ycbcr.width, ycbcr.height)
    }
    self.chroma = chroma
    self.chromaBytesPerRow = chromaBytesPerRow
    guard width > 0, height > 0 else { return nil }
    // Every pixel the sampler can read must be inside its plane.
    let pixelBytes: Int
    switch kind {
    case .rgb: pixelBytes = 3
    case .bgra: pixelBytes = 4
    case .yCbCr: pixelBytes = 1
    }
    var complete =
      planeBytesPerRow >= width * pixelBytes
      && plane.count >= planeBytesPerRow * (height - 1) + width * pixelBytes
    if case .yCbCr = kind {
      let chromaWidth = (width + 1) / 2
      let chromaHeight = (height + 1) / 2
      complete =
        complete && chromaBytesPerRow >= chromaWidth * 2
        && chroma.count >= chromaBytesPerRow * (chromaHeight - 1) + chromaWidth * 2
    }
    guard complete else { throw UnprojectionError.incompleteColor(width: width, height: height) }
    scaleX = Double(width) / Double(depthWidth)
    scaleY = Double(height) / Double(depthHeight)
  }

  /// The colour column under depth column `u`.
  func column(u: Int) -> Int { min(Int((Double(u) + 0.5) * scaleX), width - 1) }

  /// The colour row under depth row `v`.
  func row(v: Int) -> Int { min(Int((Double(v) + 0.5) * scaleY), height - 1) }

  /// Runs `body` with direct access to the planes, for a frame's worth of lookups.
  func withPixels<R>(_ body: (Pixels) -> R) -> R {
    plane.withUnsafeBufferPointer { plane in
      chroma.withUnsafeBufferPointer { chroma in
        body(
          Pixels(
            kind: kind, plane: plane.baseAddress.unsafelyUnwrapped,
            planeBytesPerRow: planeBytesPerRow, chroma: chroma.baseAddress,
            chromaBytesPerRow: chromaBytesPerRow))
      }
    }
  }

  /// The colour under depth pixel (u, v).
  func color(u: Int, v: Int) -> RGB8 {
    withPixels { $0.color(x: column(u: u), y: row(v: v)) }
  }

  /// Pointers into a sampler's planes, valid inside `withPixels`. Bounds were checked
  /// when the sampler was made.
  struct Pixels {
    fileprivate let kind: Kind
    fileprivate let plane: UnsafePointer<UInt8>
    fileprivate let planeBytesPerRow: Int
    fileprivate let chroma: UnsafePointer<UInt8>?
    fileprivate let chromaBytesPerRow: Int

    /// The colour of colour pixel (x, y).
    @inline(__always)
    func color(x: Int, y: Int) -> RGB8 {
      switch kind {
      case .rgb:
        let p = plane + (y &* planeBytesPerRow &+ x &* 3)
        return RGB8(p[0], p[1], p[2])
      case .bgra:
        let p = plane + (y &* planeBytesPerRow &+ x &* 4)
        return RGB8(p[2], p[1], p[0])
      case .yCbCr(let range):
        let luma = plane[y &* planeBytesPerRow &+ x]
        let c = chroma.unsafelyUnwrapped + ((y / 2) &* chromaBytesPerRow &+ (x / 2) &* 2)
        return ColorSampler.rgb(y: luma, cb: c[0], cr: c[1], range: range)
      }
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
  /// The camera pose holds a NaN or an infinity.
  case nonFinitePose
  /// A point lands past a Float's range (about ±3.4e38 m): the pose or the intrinsics
  /// are finite but far out of range (a translation of 1e300 m, a focal length of 1e-300).
  case positionOutOfRange
  case incompleteColor(width: Int, height: Int)

  public var description: String {
    switch self {
    case .noJPEGDecoder: "the frame's colour is JPEG but no JPEG decoder was given"
    case .incompleteDepth(let w, let h, let n): "depth map of \(w)×\(h) holds only \(n) bytes"
    case .incompleteConfidence(let w, let h, let n):
      "confidence map of \(w)×\(h) holds only \(n) bytes"
    case .confidenceSizeMismatch(let depth, let confidence):
      "confidence map is \(confidence) but the depth map is \(depth)"
    case .invalidIntrinsics:
      "intrinsics with a zero or non-finite focal length, a non-finite principal point or no size"
    case .nonFinitePose: "the camera pose holds a NaN or an infinity"
    case .positionOutOfRange:
      "the pose and intrinsics put points past a 32-bit float's range (±3.4e38 m): a "
        + "translation or focal length far out of range"
    case .incompleteColor(let w, let h):
      "colour image of \(w)×\(h) is shorter than its size and stride"
    }
  }
}
