// The colour panel: every form a frame's colour image comes in, reduced for display.

extension FramePreview {
  /// `image` as RGB at most `maxWidth` pixels wide, keeping its aspect ratio; nil for an
  /// empty image.
  ///
  /// - Parameter fallbackAspect: the width and height whose ratio guesses a JPEG's shape
  ///   when its header gives no size (the depth map's: both cover the same view).
  /// - Throws: the decoder's error, `UnprojectionError.noJPEGDecoder` for JPEG without a
  ///   decoder, `UnprojectionError.incompleteColor` for a plane shorter than its size and
  ///   stride say.
  static func colorImage(
    _ image: ColorImage, maxWidth: Int, decoder: (any ColorDecoder)?,
    fallbackAspect: (width: Int, height: Int)
  ) throws -> RGBImage? {
    switch image {
    case .jpeg(let bytes):
      guard let decoder else { throw UnprojectionError.noJPEGDecoder }
      // Ask for the size the preview ends at, as Unprojector asks for the depth map's:
      // the decoder then scales in the DCT, far cheaper than decoding every pixel and
      // averaging them away. Its nearest scale may still be wider, hence the box pass.
      let shape = JPEGSize.read(bytes) ?? fallbackAspect
      let target = reducedSize(width: shape.width, height: shape.height, maxWidth: maxWidth)
      let rgb = try decoder.decodeJPEG(
        bytes, preferredWidth: target.width, preferredHeight: target.height)
      return try colorImage(.rgb(rgb), maxWidth: maxWidth, decoder: nil, fallbackAspect: shape)
    case .rgb(let rgb):
      guard rgb.width > 0, rgb.height > 0 else { return nil }
      let rowBytes = rgb.width * 3
      return boxReduced(width: rgb.width, height: rgb.height, maxWidth: maxWidth) { y, row in
        row.replaceSubrange(0..<rowBytes, with: rgb.pixels[y * rowBytes..<(y + 1) * rowBytes])
      }
    case .bgra(let bgra):
      guard bgra.width > 0, bgra.height > 0 else { return nil }
      guard bgra.bytesPerRow >= bgra.width * 4,
        bgra.bytes.count >= bgra.bytesPerRow * (bgra.height - 1) + bgra.width * 4
      else { throw UnprojectionError.incompleteColor(width: bgra.width, height: bgra.height) }
      return boxReduced(width: bgra.width, height: bgra.height, maxWidth: maxWidth) { y, row in
        let start = y * bgra.bytesPerRow
        for x in 0..<bgra.width {
          let p = start + x * 4
          (row[x * 3], row[x * 3 + 1], row[x * 3 + 2]) =
            (bgra.bytes[p + 2], bgra.bytes[p + 1], bgra.bytes[p])
        }
      }
    case .yCbCr420(let image):
      guard image.width > 0, image.height > 0 else { return nil }
      guard isComplete(image) else {
        throw UnprojectionError.incompleteColor(width: image.width, height: image.height)
      }
      return boxReduced(width: image.width, height: image.height, maxWidth: maxWidth) { y, row in
        let lumaStart = y * image.lumaBytesPerRow
        // 4:2:0: one Cb Cr pair for each 2×2 block of luma.
        let chromaStart = (y / 2) * image.chromaBytesPerRow
        for x in 0..<image.width {
          let c = chromaStart + (x / 2) * 2
          // The sampler's conversion, so preview and points agree to the byte.
          let color = ColorSampler.rgb(
            y: image.luma[lumaStart + x], cb: image.chroma[c], cr: image.chroma[c + 1],
            range: image.range)
          (row[x * 3], row[x * 3 + 1], row[x * 3 + 2]) = (color.r, color.g, color.b)
        }
      }
    }
  }

  /// Whether both planes of `image` hold every row their size and strides claim.
  private static func isComplete(_ image: YCbCrImage) -> Bool {
    let chromaWidth = (image.width + 1) / 2
    let chromaHeight = (image.height + 1) / 2
    return image.lumaBytesPerRow >= image.width
      && image.luma.count >= image.lumaBytesPerRow * (image.height - 1) + image.width
      && image.chromaBytesPerRow >= chromaWidth * 2
      && image.chroma.count >= image.chromaBytesPerRow * (chromaHeight - 1) + chromaWidth * 2
  }

  /// The size a `width` × `height` image is reduced to: `maxWidth` wide at most, the
  /// height scaled alike and rounded, never below one pixel or above the original.
  static func reducedSize(width: Int, height: Int, maxWidth: Int) -> (width: Int, height: Int) {
    guard width > maxWidth else { return (width, height) }
    let scaledHeight = (Double(height) * Double(maxWidth) / Double(width)).rounded()
    return (maxWidth, min(max(Int(scaledHeight), 1), height))
  }

  /// A `width` × `height` image, read one row of RGB at a time by `readRow` into the
  /// buffer it is given, reduced to `reducedSize` by a box filter: each output pixel is
  /// the rounded mean of the block of source pixels it covers (blocks split the source
  /// at whole pixels, so an integer factor gives exact k×k means).
  static func boxReduced(
    width: Int, height: Int, maxWidth: Int, readRow: (_ y: Int, _ row: inout [UInt8]) -> Void
  ) -> RGBImage {
    let (outWidth, outHeight) = reducedSize(width: width, height: height, maxWidth: maxWidth)
    // Source column where output column i starts; the last entry ends the image.
    let columnStarts = (0...outWidth).map { $0 * width / outWidth }
    var row = [UInt8](repeating: 0, count: width * 3)
    var sums = [UInt32](repeating: 0, count: outWidth * 3)
    var pixels = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
    for outY in 0..<outHeight {
      let rows = (outY * height / outHeight)..<((outY + 1) * height / outHeight)
      for i in sums.indices { sums[i] = 0 }
      for y in rows {
        readRow(y, &row)
        for outX in 0..<outWidth {
          for x in columnStarts[outX]..<columnStarts[outX + 1] {
            sums[outX * 3] += UInt32(row[x * 3])
            sums[outX * 3 + 1] += UInt32(row[x * 3 + 1])
            sums[outX * 3 + 2] += UInt32(row[x * 3 + 2])
          }
        }
      }
      for outX in 0..<outWidth {
        let count = UInt32(rows.count * (columnStarts[outX + 1] - columnStarts[outX]))
        let out = (outY * outWidth + outX) * 3
        for channel in 0..<3 {
          pixels[out + channel] = UInt8((sums[outX * 3 + channel] + count / 2) / count)
        }
      }
    }
    return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
  }
}
