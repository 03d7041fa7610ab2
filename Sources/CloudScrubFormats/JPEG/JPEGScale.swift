import CTurboJPEG

/// A fraction by which the JPEG decoder scales an image while decoding it (libjpeg-turbo
/// scales in the inverse DCT, so a smaller scale is also a faster decode).
///
/// A scaled dimension is rounded up: `ceil(dimension × numerator / denominator)`, as
/// libjpeg-turbo's `TJSCALED` does.
public struct JPEGScale: Hashable, Sendable, CustomStringConvertible {
  public var numerator: Int
  public var denominator: Int

  public init(_ numerator: Int, _ denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  public static let full = JPEGScale(1, 1)
  public static let half = JPEGScale(1, 2)
  public static let quarter = JPEGScale(1, 4)
  public static let eighth = JPEGScale(1, 8)

  /// The scales up to 1/1 that the linked libjpeg-turbo can decode at, smallest first
  /// (1/8, 1/4, 3/8, 1/2, 5/8, 3/4, 7/8, 1/1 for libjpeg-turbo 2.x).
  ///
  /// The library also offers enlarging scales (up to 2/1); the decoder never uses them.
  public static let supported: [JPEGScale] = {
    var count: Int32 = 0
    guard let factors = tjGetScalingFactors(&count), count > 0 else { return [.full] }
    let scales = (0..<Int(count)).map { JPEGScale(Int(factors[$0].num), Int(factors[$0].denom)) }
    return scales.filter { $0.numerator <= $0.denominator }.sorted { $0.value < $1.value }
  }()

  /// The fraction as a number.
  public var value: Double { Double(numerator) / Double(denominator) }

  /// `dimension` scaled by this factor, rounded up.
  public func scaled(_ dimension: Int) -> Int {
    (dimension * numerator + denominator - 1) / denominator
  }

  public var description: String { "\(numerator)/\(denominator)" }

  /// The smallest supported scale at which an image of `imageWidth` × `imageHeight`
  /// pixels decodes to at least `preferredWidth` × `preferredHeight`.
  ///
  /// A 1440×1920 JPEG for a 192×256 depth map decodes at 1/4 (360×480): 1/8 would give
  /// 180×240, below the depth map's size. When even the full size is smaller than the
  /// preferred size, the answer is 1/1: the decoder never enlarges. A preferred
  /// dimension of 0 or less sets no lower bound in that direction.
  public static func smallest(
    forImageWidth imageWidth: Int, imageHeight: Int, notBelowWidth preferredWidth: Int,
    height preferredHeight: Int
  ) -> JPEGScale {
    let fitting = supported.first { scale in
      scale.scaled(imageWidth) >= preferredWidth && scale.scaled(imageHeight) >= preferredHeight
    }
    return fitting ?? .full
  }

  /// The supported scale whose output comes closest to `preferredWidth` ×
  /// `preferredHeight`, measured as the larger of the two sides' size ratios (so 180×240
  /// is closer to 192×256 than 360×480 is). Ties go to the larger scale; a preferred
  /// size of 0 or less gives full size.
  public static func closest(
    forImageWidth imageWidth: Int, imageHeight: Int, toWidth preferredWidth: Int,
    height preferredHeight: Int
  ) -> JPEGScale {
    guard preferredWidth > 0, preferredHeight > 0 else { return .full }
    func distance(_ scale: JPEGScale) -> Double {
      func ratio(_ a: Int, _ b: Int) -> Double {
        let r = Double(max(a, 1)) / Double(b)
        return r >= 1 ? r : 1 / r
      }
      return max(
        ratio(scale.scaled(imageWidth), preferredWidth),
        ratio(scale.scaled(imageHeight), preferredHeight))
    }
    return supported.reversed().min { distance($0) < distance($1) } ?? .full
  }
}
