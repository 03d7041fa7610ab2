import Foundation

/// A screenshot in the X Window Dump format that `xwd` writes, parsed without any
/// image library so that window tests need only the X programs themselves.
///
/// Supports what a 24-bit TrueColor screen gives: ZPixmap with 32 bits per pixel, in
/// either byte order.
public struct XWDImage {
  public let width: Int
  public let height: Int
  private let bytesPerLine: Int
  private let littleEndian: Bool
  private let masks: (red: UInt32, green: UInt32, blue: UInt32)
  private let pixels: Data

  /// Parses the bytes of an XWD file.
  ///
  /// - Throws: `XToolError` when the file is short, not XWD version 7, or a kind of
  ///   image this reader does not handle.
  public init(data: Data) throws {
    // The header is 25 big-endian 32-bit fields; only the ones used are named here.
    let fieldCount = 25
    guard data.count >= fieldCount * 4 else {
      throw XToolError("XWD file is only \(data.count) bytes")
    }
    let bytes = [UInt8](data)
    func field(_ index: Int) -> Int {
      let at = index * 4
      return Int(
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8
          | UInt32(bytes[at + 3]))
    }
    let headerSize = field(0)
    let version = field(1)
    let format = field(2)
    let width = field(4)
    let height = field(5)
    let byteOrder = field(7)
    let bitsPerPixel = field(11)
    let bytesPerLine = field(12)
    let masks = (red: UInt32(field(14)), green: UInt32(field(15)), blue: UInt32(field(16)))
    let colorCount = field(19)
    guard version == 7 else { throw XToolError("XWD version \(version), expected 7") }
    guard format == 2 else { throw XToolError("XWD pixmap format \(format), expected 2 (ZPixmap)") }
    guard bitsPerPixel == 32 else {
      throw XToolError("XWD has \(bitsPerPixel) bits per pixel, expected 32")
    }
    guard masks.red != 0, masks.green != 0, masks.blue != 0 else {
      throw XToolError("XWD has no colour masks (not a TrueColor visual)")
    }
    guard width > 0, height > 0, bytesPerLine >= width * 4 else {
      throw XToolError(
        "XWD size \(width)×\(height) with \(bytesPerLine) bytes per line is inconsistent")
    }
    // After the header come the window name (up to header_size) and the colormap of
    // `ncolors` 12-byte entries, which a TrueColor image does not need.
    let pixelStart = headerSize + colorCount * 12
    let pixelEnd = pixelStart + bytesPerLine * height
    guard headerSize >= fieldCount * 4, pixelEnd <= data.count else {
      throw XToolError("XWD file is \(data.count) bytes, its header says \(pixelEnd)")
    }
    self.width = width
    self.height = height
    self.bytesPerLine = bytesPerLine
    self.littleEndian = byteOrder == 0  // LSBFirst
    self.masks = masks
    self.pixels = Data(bytes[pixelStart..<pixelEnd])
  }

  /// Reads an XWD file.
  public init(contentsOf url: URL) throws {
    try self.init(data: Data(contentsOf: url))
  }

  /// Takes a screenshot of the whole screen of `display` with `xwd -root`.
  ///
  /// - Throws: `XToolError` when xwd fails or writes something unreadable.
  public static func capture(display: String) throws -> XWDImage {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cloudscrub-\(UUID().uuidString).xwd")
    defer { try? FileManager.default.removeItem(at: file) }
    // Writing to a file rather than a pipe keeps megabytes out of the pipe buffers.
    let output = try XTools.run(
      "xwd", ["-root", "-silent", "-display", display, "-out", file.path])
    guard output.status == 0 else {
      throw XToolError("xwd failed (\(output.status)): \(output.standardError)")
    }
    return try XWDImage(contentsOf: file)
  }

  /// The 8-bit colour at (`x`, `y`), top-left origin. Coordinates outside the image
  /// give black.
  public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
    guard x >= 0, y >= 0, x < width, y < height else { return (0, 0, 0) }
    let at = y * bytesPerLine + x * 4
    let value = pixels.withUnsafeBytes { raw -> UInt32 in
      let b0 = UInt32(raw[at]), b1 = UInt32(raw[at + 1]), b2 = UInt32(raw[at + 2]),
        b3 = UInt32(raw[at + 3])
      return littleEndian ? b0 | b1 << 8 | b2 << 16 | b3 << 24 : b0 << 24 | b1 << 16 | b2 << 8 | b3
    }
    return (
      Self.channel(value, masks.red), Self.channel(value, masks.green),
      Self.channel(value, masks.blue)
    )
  }

  /// Writes the picture as a binary PPM (P6) in the temporary folder, named `name`, so a
  /// failing window test can name a screenshot to look at; returns the file's path.
  @discardableResult
  public func saveForInspection(_ name: String) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(name + ".ppm").path
    var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
    bytes.reserveCapacity(bytes.count + width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let p = pixel(x: x, y: y)
        bytes += [p.r, p.g, p.b]
      }
    }
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  /// Extracts the bits of `mask` from `value`, scaled to 0…255 whatever the mask's width.
  private static func channel(_ value: UInt32, _ mask: UInt32) -> UInt8 {
    let shift = mask.trailingZeroBitCount
    let maximum = mask >> shift
    let bits = (value & mask) >> shift
    return UInt8((UInt64(bits) * 255 + UInt64(maximum) / 2) / UInt64(maximum))
  }
}
