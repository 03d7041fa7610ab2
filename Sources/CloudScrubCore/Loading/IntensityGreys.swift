/// A scan's intensity as grey levels: what the intensity colour mode draws, and the
/// colours of a cloud with intensity and no colour (a LAS, E57 or PCD scan without RGB).
///
/// The intensity attribute is found by name (`intensity`, or CloudCompare's
/// `scalar_intensity`, in any case). The greys span the 1st to the 99th percentile of
/// the intensities (over at most about 65,000 evenly spaced points), black to white, so
/// that a few saturated returns do not darken the rest; a cloud whose intensities are
/// all equal (or none finite) gets no greys.
public enum IntensityGreys {
  /// The names an intensity attribute goes by, lowercased.
  static let names: Set<String> = ["intensity", "scalar_intensity"]

  /// `cloud`'s intensity attribute, found by name.
  public static func attribute(of cloud: PointCloud) -> PointAttribute? {
    cloud.attributes.first { names.contains($0.name.lowercased()) }
  }

  /// Grey levels as colours.
  public static func colors(ofLevels levels: [UInt8]) -> [RGB8] {
    levels.map { RGB8($0, $0, $0) }
  }

  /// The grey level (0 black … 255 white) of each of `cloud`'s points, or nil when it
  /// has no usable intensity.
  public static func levels(of cloud: PointCloud) -> [UInt8]? {
    guard
      let attribute = attribute(of: cloud),
      attribute.values.count == cloud.count, cloud.count > 0
    else { return nil }
    let values = attribute.values
    let step = max(1, cloud.count / 65_536)
    let sample = stride(from: 0, to: cloud.count, by: step).map { values.double(at: $0) }
    guard let ramp = Ramp(sample: sample) else { return nil }
    return (0..<cloud.count).map { ramp.level(values.double(at: $0)) }
  }

  /// The 1st to 99th percentile of a sample of intensities as black to white: how a
  /// cloud read in pieces (a COPC file's octree nodes) greys every piece alike.
  public struct Ramp: Sendable, Equatable {
    public let low: Double
    public let high: Double

    /// Nil when the sample's finite values are all equal, or there are none.
    public init?(sample: [Double]) {
      let sorted = sample.filter(\.isFinite).sorted()
      guard !sorted.isEmpty else { return nil }
      low = sorted[Int(Double(sorted.count - 1) * 0.01)]
      high = sorted[Int(Double(sorted.count - 1) * 0.99)]
      guard high > low else { return nil }
    }

    /// The grey level of `value`: 0 at `low` and below, 255 at `high` and above.
    public func level(_ value: Double) -> UInt8 {
      let level = value.isFinite ? min(255, max(0, (value - low) * (255 / (high - low)))) : 0
      return UInt8(level.rounded())
    }
  }
}
