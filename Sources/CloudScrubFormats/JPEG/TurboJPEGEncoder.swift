import CTurboJPEG
import CloudScrubCore

/// Encodes 8-bit RGB images as JPEG with libjpeg-turbo, as a capture app would store
/// its colour frames.
public struct TurboJPEGEncoder: Sendable {
  /// JPEG quality, 1…100.
  public var quality: Int

  public init(quality: Int = 90) {
    self.quality = min(max(quality, 1), 100)
  }

  /// The JPEG bytes of `image` (4:2:0 chroma subsampling, as cameras write).
  ///
  /// - Throws: `JPEGEncodingError` with libjpeg-turbo's message.
  public func encode(_ image: RGBImage) throws -> [UInt8] {
    guard let handle = tjInitCompress() else {
      throw JPEGEncodingError(message: "cannot create a compressor")
    }
    defer { tjDestroy(handle) }
    var output: UnsafeMutablePointer<UInt8>?
    var size: UInt = 0
    let status = image.pixels.withUnsafeBufferPointer { pixels in
      tjCompress2(
        handle, pixels.baseAddress, Int32(image.width), Int32(image.width * 3),
        Int32(image.height), Int32(TJPF_RGB.rawValue), &output, &size, Int32(TJSAMP_420.rawValue),
        Int32(quality), 0)
    }
    defer { tjFree(output) }
    guard status == 0, let output else {
      throw JPEGEncodingError(message: String(cString: tjGetErrorStr2(handle)))
    }
    return Array(UnsafeBufferPointer(start: output, count: Int(size)))
  }
}

/// libjpeg-turbo could not encode an image.
public struct JPEGEncodingError: Error, Equatable, CustomStringConvertible, Sendable {
  public var message: String

  public init(message: String) { self.message = message }

  public var description: String { "cannot encode JPEG: \(message)" }
}
