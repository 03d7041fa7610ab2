import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Targets for the image wrappers: PNG (libpng), JPEG (libjpeg-turbo) and EXR
/// (OpenEXR). The C libraries are not instrumented, so the fuzzer sees only the Swift
/// around them: the size checks before allocating and the conversions after decoding.
enum ImageTargets {
  static let all: [FuzzTarget] = [png, jpeg, exr]

  static let png = FuzzTarget(
    name: "png", maxLength: 1 << 16,
    run: { bytes in
      _ = try? PNGCodec.decodeGray16(bytes)
      _ = try? PNGCodec.decodeRGB(bytes)
    },
    seeds: {
      let samples = (0..<(16 * 12)).map { UInt16($0 * 300) }
      let gray = try? PNGCodec.encodeGray16(Gray16Image(width: 16, height: 12, samples: samples))
      let levels = try? PNGCodec.encodeGray8(
        width: 16, height: 12, samples: (0..<(16 * 12)).map { UInt8($0 % 3) })
      let rgb = try? PNGCodec.encode(
        RGBImage(width: 8, height: 6, pixels: (0..<(8 * 6 * 3)).map { UInt8($0 % 256) }))
      return [gray, levels, rgb].compactMap { $0 }
    })

  static let jpeg = FuzzTarget(
    name: "jpeg", maxLength: 1 << 16,
    run: { bytes in
      let decoder = TurboJPEGDecoder()
      _ = try? decoder.imageSize(of: bytes)
      _ = try? decoder.decodeJPEG(bytes, preferredWidth: 16, preferredHeight: 12)
    },
    seeds: {
      let image = RGBImage(
        width: 16, height: 12, pixels: (0..<(16 * 12 * 3)).map { UInt8($0 % 251) })
      return [try? TurboJPEGEncoder(quality: 90).encode(image)].compactMap { $0 }
    })

  static let exr = FuzzTarget(
    name: "exr", maxLength: 1 << 17,
    run: { bytes in
      bytes.withUnsafeBytes { raw in
        _ = try? EXRDepthReader().readDepth(bytes: raw, path: "input.exr")
      }
    },
    // No EXR writer here: the script seeds from the real captures in ../shared/data.
    seeds: { [] })
}
