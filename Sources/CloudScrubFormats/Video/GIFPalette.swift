import CloudScrubCore

/// The 256-colour palette a GIF video is written with, and the ordered dithering that
/// maps RGB pixels to it.
///
/// The palette is fixed: six levels of red, seven of green (the eye is most sensitive to
/// it) and six of blue, 252 colours evenly spread over the cube, and four unused slots.
/// A fixed palette keeps every frame's colours alike (no flicker between frames) and
/// needs no pass over the video first. A 4×4 Bayer threshold picks, for each pixel and
/// channel, between the two nearest levels in proportion to how close the value lies to
/// each, so smooth gradients keep their average colour.
enum GIFPalette {
  static let redLevels = 6
  static let greenLevels = 7
  static let blueLevels = 6

  /// The 256 colours, indexed as `indices` writes them: red × 42 + green × 6 + blue.
  static let colours: [RGB8] = (0..<256).map { slot in
    guard slot < redLevels * greenLevels * blueLevels else { return RGB8(0, 0, 0) }
    let red = slot / (greenLevels * blueLevels)
    let green = slot / blueLevels % greenLevels
    let blue = slot % blueLevels
    return RGB8(
      level(red, of: redLevels), level(green, of: greenLevels), level(blue, of: blueLevels))
  }

  /// The byte value of `level` out of `levels` evenly spaced from 0 to 255.
  static func level(_ level: Int, of levels: Int) -> UInt8 {
    UInt8((level * 255 + (levels - 1) / 2) / (levels - 1))
  }

  /// The 4×4 Bayer matrix's thresholds, scaled to 0…254.
  static let thresholds: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map {
    ($0 * 255 + 8) / 16
  }

  /// The palette index of each pixel of `image`, dithered, row by row into `target`
  /// whose rows are `rowStride` bytes apart.
  static func indices(of image: RGBImage, into target: UnsafeMutablePointer<UInt8>, rowStride: Int)
  {
    image.pixels.withUnsafeBufferPointer { pixels in
      for y in 0..<image.height {
        let row = target + y * rowStride
        let source = y * image.width * 3
        for x in 0..<image.width {
          let t = thresholds[(y & 3) * 4 + (x & 3)]
          let red = (Int(pixels[source + 3 * x]) * (redLevels - 1) + t) / 255
          let green = (Int(pixels[source + 3 * x + 1]) * (greenLevels - 1) + t) / 255
          let blue = (Int(pixels[source + 3 * x + 2]) * (blueLevels - 1) + t) / 255
          row[x] = UInt8(red * greenLevels * blueLevels + green * blueLevels + blue)
        }
      }
    }
  }
}
