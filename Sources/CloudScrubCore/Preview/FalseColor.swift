/// The false colours the viewer paints data with: the blue-to-red ramp and the
/// confidence colours.
///
/// Mirrors Shaders/points.vert (`ramp` and the confidence branch of `main`): the preview
/// panels beside the 3D view must show a depth or a confidence level in the same colour
/// as the points do, so a change to either colour table must be made in both places.
public enum FalseColor {
  /// The ramp's five stops, evenly spaced in t: blue (near, low, early) through cyan,
  /// green and yellow to red. The same numbers as `ramp` in Shaders/points.vert.
  static let rampStops: [SIMD3<Float>] = [
    SIMD3(0.15, 0.25, 0.95),
    SIMD3(0.10, 0.80, 0.95),
    SIMD3(0.20, 0.85, 0.25),
    SIMD3(0.98, 0.85, 0.15),
    SIMD3(0.92, 0.18, 0.12),
  ]

  /// The colour of `t` on the ramp, t in 0…1 (clamped; NaN counts as 0).
  ///
  /// Interpolates linearly between the stops in Float as the shader does, then rounds
  /// each channel's value × 255 to a byte, so t = 0, 0.25, 0.5, 0.75 and 1 give the
  /// stops exactly.
  public static func ramp(_ t: Float) -> RGB8 {
    // `max` first so a NaN becomes 0 instead of passing through both comparisons.
    let clamped = min(max(t.isNaN ? 0 : t, 0), 1)
    let s = clamped * 4
    // Same segment choice as the shader: s exactly 1, 2, 3 starts the next segment and
    // s = 4 ends the last one, so every stop is reached with a mix weight of 0 or 1.
    let segment = min(Int(s), 3)
    let weight = s - Float(segment)
    let from = rampStops[segment]
    let to = rampStops[segment + 1]
    // GLSL's mix(x, y, a) = x·(1 − a) + y·a.
    return bytes(from * (1 - weight) + to * weight)
  }

  /// The colour of a confidence sample: low, medium, high, or grey for any other value
  /// (the shader's "no confidence map" colour).
  public static func confidence(_ value: UInt8) -> RGB8 {
    switch ConfidenceLevel(rawValue: value) {
    case .low: bytes(SIMD3(0.90, 0.20, 0.15))
    case .medium: bytes(SIMD3(0.95, 0.80, 0.15))
    case .high: bytes(SIMD3(0.20, 0.80, 0.30))
    case nil: bytes(SIMD3(0.75, 0.75, 0.75))
    }
  }

  /// The colour of a confidence level.
  public static func confidence(_ level: ConfidenceLevel) -> RGB8 {
    confidence(level.rawValue)
  }

  /// A colour in 0…1 as bytes, each channel rounded from value × 255 (in Float, as the
  /// GPU's normalised conversion works on the shader's float).
  static func bytes(_ color: SIMD3<Float>) -> RGB8 {
    func byte(_ value: Float) -> UInt8 { UInt8(min(max(value * 255, 0), 255).rounded()) }
    return RGB8(byte(color.x), byte(color.y), byte(color.z))
  }
}
