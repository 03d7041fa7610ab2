import CloudScrubCore

/// The colours of `Shaders/points.vert`, computed on the CPU: the same ramp, the same
/// confidence colours, the same dimming, converted to bytes the way a framebuffer of
/// 8-bit channels stores them.
///
/// A colour is one `UInt32` in memory order red, green, blue, alpha (little-endian);
/// points carry alpha 255 (the composite pass's "point" mark), the background 0.
enum CPUPointShading {
  /// Alpha 255 in the packed colour: what the points shader writes.
  static let pointAlpha: UInt32 = 0xFF00_0000

  /// Blue (near, low, early) through cyan, green and yellow to red: `ramp` of the
  /// points shader.
  @inline(__always)
  static func ramp(_ value: Float) -> SIMD3<Float> {
    let t = min(max(value, 0), 1)
    let s = t * 4
    if s < 1 { return mix(SIMD3(0.15, 0.25, 0.95), SIMD3(0.10, 0.80, 0.95), s) }
    if s < 2 { return mix(SIMD3(0.10, 0.80, 0.95), SIMD3(0.20, 0.85, 0.25), s - 1) }
    if s < 3 { return mix(SIMD3(0.20, 0.85, 0.25), SIMD3(0.98, 0.85, 0.15), s - 2) }
    return mix(SIMD3(0.98, 0.85, 0.15), SIMD3(0.92, 0.18, 0.12), s - 3)
  }

  /// GLSL's `mix`: `a * (1 - t) + b * t`.
  @inline(__always)
  static func mix(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ t: Float) -> SIMD3<Float> {
    a * (1 - t) + b * t
  }

  /// One channel in 0…1 as an 8-bit framebuffer stores it (nearest, clamped).
  @inline(__always)
  static func unorm8(_ value: Float) -> UInt32 {
    UInt32(min(max(value, 0), 1) * 255 + 0.5)
  }

  /// A shader colour as a packed point colour, darkened to a quarter when `dimmed`.
  @inline(__always)
  static func packed(_ color: SIMD3<Float>, dimmed: Bool) -> UInt32 {
    let c = dimmed ? color * 0.25 : color
    return unorm8(c.x) | unorm8(c.y) << 8 | unorm8(c.z) << 16 | pointAlpha
  }

  /// Each stored byte as the shader writes it back: the same byte (read as a
  /// normalised float and written again it does not change), or dimmed.
  static func byteTable(dimmed: Bool) -> [UInt32] {
    (0..<256).map { value in
      dimmed ? unorm8(Float(value) / 255 * 0.25) : UInt32(value)
    }
  }

  /// The colour of confidence `value` in the confidence mode: low red, medium yellow,
  /// high green, no map grey.
  static func confidenceColor(_ value: UInt8, dimmed: Bool) -> UInt32 {
    let color: SIMD3<Float>
    switch value {
    case 0: color = SIMD3(0.90, 0.20, 0.15)
    case 1: color = SIMD3(0.95, 0.80, 0.15)
    case 2: color = SIMD3(0.20, 0.80, 0.30)
    default: color = SIMD3(0.75, 0.75, 0.75)
    }
    return packed(color, dimmed: dimmed)
  }

  /// The colour of frame `frame` of `frameCount` in the frame mode.
  static func frameColor(_ frame: Int, frameCount: Int, dimmed: Bool) -> UInt32 {
    let t: Float = frameCount > 1 ? Float(frame) / Float(frameCount - 1) : 0
    return packed(ramp(t), dimmed: dimmed)
  }

  /// The grey of a frame whose alignment error was not measured.
  static let unmeasuredErrorGray: Float = 0.45

  /// The colour of a frame with alignment error `errorMeters` (negative: not
  /// measured) on a ramp whose red end is `scaleMeters`, in the error mode.
  static func errorColor(_ errorMeters: Float, scaleMeters: Float, dimmed: Bool) -> UInt32 {
    guard errorMeters >= 0 else {
      let g = unmeasuredErrorGray
      return packed(SIMD3(g, g, g), dimmed: dimmed)
    }
    return packed(ramp(errorMeters / scaleMeters), dimmed: dimmed)
  }

  /// The background as the scene target holds it after a clear: alpha 0.
  static func background(_ gray: SIMD3<Float>) -> UInt32 {
    unorm8(gray.x) | unorm8(gray.y) << 8 | unorm8(gray.z) << 16
  }

  /// The frame that point `index` belongs to: the last of the first `frameCount`
  /// frames whose first point is at or before it (`frameOf` of the points shader).
  static func frame(ofPoint index: Int, frameStarts: [Int], frameCount: Int) -> Int {
    var low = 0
    var high = min(frameCount, frameStarts.count) - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if frameStarts[middle] <= index { low = middle } else { high = middle - 1 }
    }
    return low
  }
}
