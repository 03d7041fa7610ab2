import CloudScrubCore
import Foundation

/// 3D Gaussian splatting PLY files (what Polycam, Luma, Scaniverse and the splatting
/// trainers export): a vertex per Gaussian with `f_dc_0..2` (degree-0 spherical
/// harmonics), `opacity` (a logit), `scale_*`, `rot_*` and optional `f_rest_*`, and no
/// colour. CloudScrub shows each Gaussian as a point at its centre.
public enum GaussianSplats {
  /// The degree-0 spherical-harmonics constant, 1 / (2 √π).
  public static let shC0: Float = 0.282_094_79

  /// Whether `cloud` has the fields of a splat file.
  public static func isSplatCloud(_ cloud: PointCloud) -> Bool {
    ["f_dc_0", "f_dc_1", "f_dc_2", "opacity"].allSatisfy { cloud.attribute(named: $0) != nil }
  }

  /// The points a splat cloud shows: colours from degree 0 (`0.5 + C0 × f_dc`, clamped
  /// to 0…1, then to bytes), `opacity` replaced by its sigmoid (0…1, float), and a
  /// `confidence` attribute from the opacity (below 1/3 low, below 2/3 medium, else
  /// high) that the minimum-confidence filter uses. Every other field is kept as it
  /// is; a cloud that is no splat cloud, or already has colours, comes back unchanged.
  public static func points(of cloud: PointCloud) -> PointCloud {
    guard isSplatCloud(cloud), cloud.colors == nil, cloud.attribute(named: "confidence") == nil
    else { return cloud }
    let dc = (0..<3).compactMap { cloud.attribute(named: "f_dc_\($0)")?.values }
    guard dc.count == 3, let logits = cloud.attribute(named: "opacity")?.values else {
      return cloud
    }
    var result = cloud
    result.colors = (0..<cloud.count).map { index in
      func byte(_ values: AttributeValues) -> UInt8 {
        let linear = 0.5 + shC0 * Float(values.double(at: index))
        guard linear.isFinite else { return 0 }
        return UInt8((min(1, max(0, linear)) * 255).rounded())
      }
      return RGB8(byte(dc[0]), byte(dc[1]), byte(dc[2]))
    }
    let opacity = (0..<cloud.count).map { index -> Float in
      let logit = logits.double(at: index)
      return logit.isNaN ? 0 : Float(1 / (1 + exp(-logit)))
    }
    if let slot = result.attributes.firstIndex(where: { $0.name == "opacity" }) {
      result.attributes[slot].values = .float32(opacity)
    }
    result.attributes.append(
      PointAttribute(
        name: "confidence",
        values: .uint8(
          opacity.map { value in
            value < 1.0 / 3
              ? ConfidenceLevel.low.rawValue
              : value < 2.0 / 3 ? ConfidenceLevel.medium.rawValue : ConfidenceLevel.high.rawValue
          })))
    return result
  }
}
