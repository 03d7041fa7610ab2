/// What a depth map's samples mean.
public enum DepthEncoding: String, Sendable, Codable {
  /// Distance along the camera's forward axis, in metres (ARKit's `sceneDepth`).
  case depthMeters
  /// 1 / depth, in 1/metres (the TrueDepth camera's `AVDepthData` disparity).
  case disparityInverseMeters
}

/// The storage type of a depth map's samples.
public enum DepthSampleType: String, Sendable, Codable {
  case float32
  case float16
}

/// A depth or disparity map as a capture API gives it: samples in rows that may be
/// padded (`bytesPerRow` ≥ width × sample size), little-endian.
public struct DepthMap: Equatable, Sendable {
  public var width: Int
  public var height: Int
  public var bytesPerRow: Int
  public var sampleType: DepthSampleType
  public var encoding: DepthEncoding
  public var bytes: [UInt8]

  public init(
    width: Int, height: Int, bytesPerRow: Int? = nil, sampleType: DepthSampleType = .float32,
    encoding: DepthEncoding = .depthMeters, bytes: [UInt8]
  ) {
    self.width = width
    self.height = height
    self.sampleType = sampleType
    self.bytesPerRow = bytesPerRow ?? width * (sampleType == .float32 ? 4 : 2)
    self.encoding = encoding
    self.bytes = bytes
  }

  /// A tightly packed map of depths in metres.
  public init(width: Int, height: Int, meters: [Float]) {
    precondition(meters.count == width * height, "one depth a pixel")
    self.init(
      width: width, height: height,
      bytes: meters.withUnsafeBytes { Array($0) })
  }

  /// Whether `bytes` holds every row the size and stride claim.
  public var isComplete: Bool {
    let sample = sampleType == .float32 ? 4 : 2
    guard width > 0, height > 0, bytesPerRow >= width * sample else { return width * height == 0 }
    return bytes.count >= bytesPerRow * (height - 1) + width * sample
  }

  /// Depths in metres, row-major and tightly packed; 0 where the sample is not a
  /// positive finite depth (invalid, or disparity 0). With a `border`, the grid is that
  /// many pixels wider on every side, the border all 0. A map shorter than its size
  /// (`isComplete` false, which the readers refuse before this is reached) gives a grid
  /// of zeros: no depth, rather than a read past its bytes.
  public func metersGrid(border: Int = 0) -> [Float] {
    let sampleSize = sampleType == .float32 ? 4 : 2
    let outWidth = max(0, width) + 2 * border
    let outCount = outWidth * (max(0, height) + 2 * border)
    let complete = isComplete
    return [Float](unsafeUninitializedCapacity: outCount) { out, initialized in
      let base = out.baseAddress.unsafelyUnwrapped
      base.initialize(repeating: 0, count: outCount)
      initialized = outCount
      guard complete else { return }
      bytes.withUnsafeBytes { raw in
        for y in 0..<height {
          let row = raw.baseAddress.unsafelyUnwrapped + y * bytesPerRow
          let outRow = base + (y + border) * outWidth + border
          for x in 0..<width {
            var value: Float
            if sampleSize == 4 {
              value = Float(
                bitPattern: UInt32(
                  littleEndian: row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)))
            } else {
              value = Float(
                halfBits: UInt16(
                  littleEndian: row.loadUnaligned(fromByteOffset: x &* 2, as: UInt16.self)))
            }
            if encoding == .disparityInverseMeters { value = 1 / value }
            outRow[x] = value.isFinite && value > 0 ? value : 0
          }
        }
      }
    }
  }
}

extension Float {
  /// The value of an IEEE 754 half-precision float given by its bits.
  public init(halfBits h: UInt16) {
    let sign = UInt32(h >> 15) << 31
    let exponent = Int((h >> 10) & 0x1F)
    let mantissa = UInt32(h & 0x3FF)
    switch exponent {
    case 0:
      // Zero or subnormal: mantissa × 2^-24.
      let magnitude = Float(mantissa) * 0x1p-24
      self = sign != 0 ? -magnitude : magnitude
    case 31:
      self = Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
    default:
      self = Float(bitPattern: sign | UInt32(exponent - 15 + 127) << 23 | (mantissa << 13))
    }
  }
}

/// Per-pixel confidence: 0 low, 1 medium, 2 high (ARKit's `ARConfidenceLevel`).
public struct ConfidenceMap: Equatable, Sendable {
  public var width: Int
  public var height: Int
  public var bytesPerRow: Int
  public var values: [UInt8]

  public init(width: Int, height: Int, bytesPerRow: Int? = nil, values: [UInt8]) {
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow ?? width
    self.values = values
  }

  public var isComplete: Bool {
    width * height == 0 || values.count >= bytesPerRow * (height - 1) + width
  }

  public func value(x: Int, y: Int) -> UInt8 { values[y * bytesPerRow + x] }
}

/// Confidence levels, ordered.
public enum ConfidenceLevel: UInt8, Sendable, Comparable, CaseIterable, Codable {
  case low = 0
  case medium = 1
  case high = 2

  public static func < (lhs: ConfidenceLevel, rhs: ConfidenceLevel) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// The level called `name` ("low", "medium" or "high"), as options spell it.
  public static func named(_ name: String) -> ConfidenceLevel? {
    allCases.first { "\($0)" == name }
  }
}

/// A decoded colour image, 8-bit RGB, tightly packed rows.
public struct RGBImage: Equatable, Sendable {
  public var width: Int
  public var height: Int
  public var pixels: [UInt8]

  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 3, "three bytes a pixel")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  public func pixel(x: Int, y: Int) -> RGB8 {
    let i = (y * width + x) * 3
    return RGB8(pixels[i], pixels[i + 1], pixels[i + 2])
  }
}

/// The range of a YCbCr image's samples.
public enum YCbCrRange: String, Sendable, Codable {
  /// Y in 16…235, Cb and Cr in 16…240 (`420v`).
  case video
  /// Y, Cb and Cr in 0…255 (`420f`).
  case full
}

/// A bi-planar YCbCr 4:2:0 image as ARKit's `capturedImage` gives it: a luma plane and
/// a half-size plane of interleaved Cb, Cr, each with its own row stride.
public struct YCbCrImage: Equatable, Sendable {
  public var width: Int
  public var height: Int
  public var range: YCbCrRange
  public var luma: [UInt8]
  public var lumaBytesPerRow: Int
  public var chroma: [UInt8]
  public var chromaBytesPerRow: Int

  public init(
    width: Int, height: Int, range: YCbCrRange, luma: [UInt8], lumaBytesPerRow: Int? = nil,
    chroma: [UInt8], chromaBytesPerRow: Int? = nil
  ) {
    self.width = width
    self.height = height
    self.range = range
    self.luma = luma
    self.lumaBytesPerRow = lumaBytesPerRow ?? width
    self.chroma = chroma
    self.chromaBytesPerRow = chromaBytesPerRow ?? ((width + 1) / 2) * 2
  }
}

/// A 32-bit BGRA image as `AVCaptureVideoDataOutput` gives it, rows possibly padded.
public struct BGRAImage: Equatable, Sendable {
  public var width: Int
  public var height: Int
  public var bytesPerRow: Int
  public var bytes: [UInt8]

  public init(width: Int, height: Int, bytesPerRow: Int? = nil, bytes: [UInt8]) {
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow ?? width * 4
    self.bytes = bytes
  }
}

/// A frame's colour image in whichever form its source gave it.
public enum ColorImage: Equatable, Sendable {
  /// Compressed JPEG bytes, decoded by a `ColorDecoder` (in the Formats library).
  case jpeg([UInt8])
  case rgb(RGBImage)
  case yCbCr420(YCbCrImage)
  case bgra(BGRAImage)
}
