import CPNG
import CloudScrubCore
import Foundation

/// Why a PNG could not be read or written.
public struct PNGError: Error, CustomStringConvertible, Equatable {
  public var reason: String
  public var path: String?
  public init(_ reason: String, path: String? = nil) {
    self.reason = reason
    self.path = path
  }
  public var description: String { path.map { "\(reason): \($0)" } ?? reason }
}

/// PNG through libpng's simplified API: 8-bit RGB images in and out.
public enum PNGCodec {
  /// Encodes an RGB image as PNG bytes.
  ///
  /// - Throws: `PNGError` with libpng's message when encoding fails.
  public static func encode(_ image: RGBImage) throws -> [UInt8] {
    try encode(
      width: image.width, height: image.height, format: UInt32(PNG_FORMAT_RGB),
      rowStride: Int32(image.width * 3),
      pixels: image.pixels)
  }

  /// Decodes PNG bytes to an 8-bit RGB image (alpha dropped, 16-bit reduced, grey
  /// expanded).
  ///
  /// - Throws: `PNGError` naming libpng's complaint; `path` is only for the message.
  public static func decodeRGB(_ bytes: [UInt8], path: String? = nil) throws -> RGBImage {
    var png = png_image()
    let (width, height) = try beginRead(&png, bytes, path: path)
    png.format = UInt32(PNG_FORMAT_RGB)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let finished = pixels.withUnsafeMutableBytes { out in
      png_image_finish_read(&png, nil, out.baseAddress, Int32(width * 3), nil)
    }
    guard finished != 0 else { throw PNGError("PNG data is damaged (\(message(png)))", path: path) }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  /// Writes an image as a PNG file, through a temporary file renamed into place.
  ///
  /// - Throws: `PNGError` or the file writer's error.
  public static func write(_ image: RGBImage, to path: String, protecting inputs: [String] = [])
    throws
  {
    let bytes = try encode(image)
    let writer = try AtomicFileWriter(path: path, protecting: inputs)
    do {
      try writer.write(bytes)
      try writer.commit()
    } catch {
      writer.abandon()
      throw error
    }
  }

  /// Reads a PNG's header into `png` and checks its size before anything is allocated
  /// (a header can claim anything). `png` must stay where it is until the read
  /// finishes: libpng keeps a pointer to it.
  ///
  /// - Throws: `PNGError` when libpng cannot read it or the size is absurd.
  static func beginRead(_ png: inout png_image, _ bytes: [UInt8], path: String?) throws -> (
    width: Int, height: Int
  ) {
    png.version = UInt32(PNG_IMAGE_VERSION)
    let began = bytes.withUnsafeBytes { raw in
      png_image_begin_read_from_memory(&png, raw.baseAddress, raw.count)
    }
    guard began != 0 else { throw PNGError("not a readable PNG (\(message(png)))", path: path) }
    let width = Int(png.width)
    let height = Int(png.height)
    guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
      png_image_free(&png)
      throw PNGError("PNG claims \(width)×\(height) pixels", path: path)
    }
    return (width, height)
  }

  static func message(_ png: png_image) -> String {
    var copy = png
    return withUnsafeBytes(of: &copy.message) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
