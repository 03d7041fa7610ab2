/// Where a video's frames go, one RGB image after another, all of one size: an encoder
/// writing a file, or a folder of pictures.
///
/// The output appears complete or not at all: `finish` puts it in place, and `abandon`
/// (or an interrupted process) leaves nothing of it behind.
public protocol VideoFrameSink: AnyObject {
  /// Adds the next frame.
  func append(_ image: RGBImage) throws
  /// Completes the output and puts it in place.
  func finish() throws
  /// Removes what was written so far.
  func abandon()
}

/// How a side-by-side video frame is laid out: the 3D view on the left, the frame's
/// colour image on the right at the full height, as wide as its aspect ratio makes it
/// (at most half the frame).
public struct VideoLayout: Equatable, Sendable {
  public var width: Int
  public var height: Int
  /// The colour image's width (0 without one).
  public var imageWidth: Int

  /// - Parameter imageAspect: the colour image's width over its height; nil for no image.
  public init(width: Int, height: Int, imageAspect: Double?) {
    self.width = width
    self.height = height
    guard let imageAspect, imageAspect > 0, imageAspect.isFinite else {
      imageWidth = 0
      return
    }
    let wanted = Int((Double(height) * imageAspect).rounded())
    imageWidth = min(width / 2, max(2, wanted & ~1))
  }

  /// The 3D view's width.
  public var viewWidth: Int { width - imageWidth }

  /// The frame: `view` (`viewWidth` × `height`) on the left, `image` scaled to fill
  /// the rest (black when nil).
  public func compose(view: RGBImage, image: RGBImage?) -> RGBImage {
    guard imageWidth > 0 else { return view }
    precondition(view.width == viewWidth && view.height == height, "the view's size")
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    pixels.withUnsafeMutableBufferPointer { out in
      view.pixels.withUnsafeBufferPointer { source in
        for y in 0..<height {
          let row = out.baseAddress.unsafelyUnwrapped + y * width * 3
          row.update(
            from: source.baseAddress.unsafelyUnwrapped + y * viewWidth * 3, count: viewWidth * 3)
        }
      }
      guard let image, image.width > 0, image.height > 0 else { return }
      image.pixels.withUnsafeBufferPointer { source in
        for y in 0..<height {
          let sourceRow = min(image.height - 1, y * image.height / height) * image.width * 3
          let row = out.baseAddress.unsafelyUnwrapped + (y * width + viewWidth) * 3
          for x in 0..<imageWidth {
            // Nearest pixel: the image is already reduced close to this size.
            let sourceX = min(image.width - 1, x * image.width / imageWidth)
            row[3 * x] = source[sourceRow + 3 * sourceX]
            row[3 * x + 1] = source[sourceRow + 3 * sourceX + 1]
            row[3 * x + 2] = source[sourceRow + 3 * sourceX + 2]
          }
        }
      }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
  }
}
