import CPNG
import CloudScrubCore

/// A single-channel image of 16-bit samples, top row first (depth in millimetres, say).
public struct Gray16Image: Equatable, Sendable {
  public var width: Int
  public var height: Int
  public var samples: [UInt16]

  public init(width: Int, height: Int, samples: [UInt16]) {
    precondition(samples.count == width * height, "one sample a pixel")
    self.width = width
    self.height = height
    self.samples = samples
  }
}

extension PNGCodec {
  /// Decodes a greyscale PNG to its raw samples: a 16-bit file's values as stored, an
  /// 8-bit file's values widened (0…255). No gamma is applied: these are measurements
  /// (depth in millimetres, confidence levels), not light.
  ///
  /// - Throws: `PNGError` naming libpng's complaint, or when the image has colour.
  public static func decodeGray16(_ bytes: [UInt8], path: String? = nil) throws -> Gray16Image {
    var png = png_image()
    let (width, height) = try beginRead(&png, bytes, path: path)
    guard png.format & UInt32(PNG_FORMAT_FLAG_COLOR) == 0 else {
      png_image_free(&png)
      throw PNGError("expected a greyscale PNG, found a colour one", path: path)
    }
    // libpng's simplified reader returns a 16-bit file's samples untouched in its
    // linear format, but would gamma-convert an 8-bit file there; 8-bit files are read
    // as 8-bit grey instead, which returns their bytes as stored.
    if png.format & UInt32(PNG_FORMAT_FLAG_LINEAR) != 0 {
      png.format = UInt32(PNG_FORMAT_LINEAR_Y)
      var samples = [UInt16](repeating: 0, count: width * height)
      let finished = samples.withUnsafeMutableBytes { out in
        png_image_finish_read(&png, nil, out.baseAddress, Int32(width), nil)
      }
      guard finished != 0 else {
        throw PNGError("PNG data is damaged (\(message(png)))", path: path)
      }
      return Gray16Image(width: width, height: height, samples: samples)
    }
    png.format = UInt32(PNG_FORMAT_GRAY)
    var bytesOut = [UInt8](repeating: 0, count: width * height)
    let finished = bytesOut.withUnsafeMutableBytes { out in
      png_image_finish_read(&png, nil, out.baseAddress, Int32(width), nil)
    }
    guard finished != 0 else { throw PNGError("PNG data is damaged (\(message(png)))", path: path) }
    return Gray16Image(width: width, height: height, samples: bytesOut.map(UInt16.init))
  }

  /// Encodes 16-bit greyscale samples as a 16-bit PNG (as capture apps store depth).
  ///
  /// - Throws: `PNGError` with libpng's message when encoding fails.
  public static func encodeGray16(_ image: Gray16Image) throws -> [UInt8] {
    try encode(
      width: image.width, height: image.height, format: UInt32(PNG_FORMAT_LINEAR_Y),
      rowStride: Int32(image.width),
      pixels: image.samples)
  }

  /// Encodes 8-bit greyscale samples as an 8-bit PNG (confidence maps).
  ///
  /// - Throws: `PNGError` with libpng's message when encoding fails.
  public static func encodeGray8(width: Int, height: Int, samples: [UInt8]) throws -> [UInt8] {
    precondition(samples.count == width * height, "one sample a pixel")
    return try encode(
      width: width, height: height, format: UInt32(PNG_FORMAT_GRAY), rowStride: Int32(width),
      pixels: samples)
  }

  static func encode<T>(width: Int, height: Int, format: UInt32, rowStride: Int32, pixels: [T])
    throws -> [UInt8]
  {
    var png = png_image()
    png.version = UInt32(PNG_IMAGE_VERSION)
    png.width = UInt32(width)
    png.height = UInt32(height)
    png.format = format
    // One pass into room for the samples and a little more (a PNG of data that does
    // not compress is about that long); libpng asks for more when it needs it (and
    // then the image is compressed a second time, into that size).
    let bytesASample = MemoryLayout<T>.stride
    var room = pixels.count * bytesASample + height + pixels.count * bytesASample / 64 + 4096
    for _ in 0..<2 {
      var size = png_alloc_size_t(room)
      var bytes = [UInt8](unsafeUninitializedCapacity: room) { _, count in count = room }
      let written = bytes.withUnsafeMutableBytes { out in
        pixels.withUnsafeBytes { raw in
          png_image_write_to_memory(
            &png, out.baseAddress, &size, 0, raw.baseAddress, rowStride, nil)
        }
      }
      if written != 0 {
        bytes.removeSubrange(Int(size)...)
        return bytes
      }
      // Too little room: `size` says how much the image needs.
      guard Int(size) > room else { break }
      room = Int(size)
    }
    throw PNGError("cannot encode PNG: \(message(png))")
  }
}
