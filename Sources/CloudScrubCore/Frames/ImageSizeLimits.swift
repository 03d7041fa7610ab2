/// The largest images a recording may claim, checked by every reader when it reads a
/// size from a header (a PNG's `IHDR`, `.r3d`'s `dw`/`dh`, a `.csrec` frame header)
/// and before anything is allocated from it.
///
/// A header can claim anything; a depth map of 100000×100000 would ask for 40 GB. The
/// bounds are far above what any capture app writes (iPhone LiDAR depth is 256×192,
/// ARKitScenes' laser-scanner depth 1920×1440, colour images 4K), so no real file is
/// refused, and a claim past them is reported as bad input before any memory is
/// reserved.
public enum ImageSizeLimits {
  /// The most pixels a depth or confidence map may have on a side.
  public static let maxDepthSide = 4096
  /// The most pixels a colour image may have on a side.
  public static let maxColorSide = 16384

  /// Why `width` × `height` is no plausible depth map size, or nil when it is one
  /// (both sides in 1…`maxDepthSide`).
  public static func depthProblem(width: Int, height: Int) -> String? {
    problem(width: width, height: height, maxSide: maxDepthSide, what: "depth map")
  }

  /// Why `width` × `height` is no plausible colour image size, or nil when it is one
  /// (both sides in 1…`maxColorSide`).
  public static func colorProblem(width: Int, height: Int) -> String? {
    problem(width: width, height: height, maxSide: maxColorSide, what: "colour image")
  }

  private static func problem(width: Int, height: Int, maxSide: Int, what: String) -> String? {
    guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
      return "\(what) size \(width)×\(height) is outside 1…\(maxSide) pixels a side"
    }
    return nil
  }
}

extension CameraIntrinsics {
  /// Which of `fx`, `fy`, `cx`, `cy` is not a finite number, or nil when all are.
  public var nonFiniteValue: String? {
    for (name, value) in [("fx", fx), ("fy", fy), ("cx", cx), ("cy", cy)] where !value.isFinite {
      return "intrinsics \(name) is \(value)"
    }
    return nil
  }
}

extension Transform3D {
  /// Whether every one of the 16 numbers is finite.
  public var isFinite: Bool {
    let c = columns
    return [c.0, c.1, c.2, c.3].allSatisfy { column in
      (0..<4).allSatisfy { column[$0].isFinite }
    }
  }
}
