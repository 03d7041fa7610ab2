/// One point near a click: its index, view depth and squared pixel distance.
struct PickCandidate: Equatable, Sendable {
  var index: Int
  /// Clip-space w: the distance in front of the camera along its view axis.
  var depth: Float
  var distanceSquared: Float

  /// The better of two: nearer the click, then nearer the camera, then the lower index.
  static func better(_ a: PickCandidate?, _ b: PickCandidate?) -> PickCandidate? {
    guard let a else { return b }
    guard let b else { return a }
    if a.distanceSquared != b.distanceSquared {
      return a.distanceSquared < b.distanceSquared ? a : b
    }
    if a.depth != b.depth { return a.depth < b.depth ? a : b }
    return a.index <= b.index ? a : b
  }
}

/// What one task found in its share of the points.
struct PickPassResult: Sendable {
  var candidates: [PickCandidate] = []
  /// The least depth of a point near the click, nil when none is.
  var nearestDepth: Float?
  /// Whether there were more candidates than a task keeps.
  var overflowed = false
}

/// The store's arrays as pointers, for the projecting loops.
struct PickArrays: @unchecked Sendable {
  let positions: UnsafePointer<Point3>
  let confidence: UnsafePointer<UInt8>
}

/// Projects points the way the view draws them and keeps those whose image lies
/// within the pick radius of the click.
///
/// A point is drawn when it is inside the clip volume (`|x|, |y|, |z| ≤ w`, w > 0) and
/// not below the minimum confidence; its window position is `(x/w + 1) · size / 2`.
/// The tests compare clip coordinates with the click's, scaled by w, so most points
/// are rejected after two dot products and no division.
struct PickProjector: Sendable {
  let row0: SIMD4<Float>
  let row1: SIMD4<Float>
  let row2: SIMD4<Float>
  let row3: SIMD4<Float>
  /// The click in normalised device coordinates.
  let cursorNDC: SIMD2<Float>
  /// The radius in normalised device units, along x and along y.
  let radiusNDC: SIMD2<Float>
  /// Half the viewport, pixels: NDC times this is pixels.
  let halfSize: SIMD2<Float>
  let radiusSquaredPixels: Float
  let minConfidence: UInt8
  let crop: CropBox?
  let cropWorldFromStored: Matrix4?

  init(_ request: PickRequest) {
    let m = request.viewProjection.columnMajor
    row0 = SIMD4(m[0], m[4], m[8], m[12])
    row1 = SIMD4(m[1], m[5], m[9], m[13])
    row2 = SIMD4(m[2], m[6], m[10], m[14])
    row3 = SIMD4(m[3], m[7], m[11], m[15])
    halfSize = SIMD2(Float(request.viewportWidthPixels), Float(request.viewportHeightPixels)) / 2
    // The cursor's y runs down from the top; window y (and NDC) runs up.
    cursorNDC = SIMD2(
      request.cursorPixels.x / halfSize.x - 1, 1 - request.cursorPixels.y / halfSize.y)
    radiusNDC = SIMD2(request.radiusPixels, request.radiusPixels) / halfSize
    radiusSquaredPixels = request.radiusPixels * request.radiusPixels
    minConfidence = request.minConfidence.rawValue
    crop = request.crop
    cropWorldFromStored = request.crop == nil ? nil : request.worldFromStored
  }

  /// The point at `index` as a candidate, nil when it is not shown or its image is
  /// farther from the click than the radius.
  @inline(__always)
  func candidate(_ index: Int, _ arrays: PickArrays) -> PickCandidate? {
    let p = arrays.positions[index]
    let w = row3.x * p.x + row3.y * p.y + row3.z * p.z + row3.w
    guard w > 0 else { return nil }
    let x = row0.x * p.x + row0.y * p.y + row0.z * p.z + row0.w
    let dx = x - cursorNDC.x * w
    guard abs(dx) <= radiusNDC.x * w, abs(x) <= w else { return nil }
    let y = row1.x * p.x + row1.y * p.y + row1.z * p.z + row1.w
    let dy = y - cursorNDC.y * w
    guard abs(dy) <= radiusNDC.y * w, abs(y) <= w else { return nil }
    let z = row2.x * p.x + row2.y * p.y + row2.z * p.z + row2.w
    guard abs(z) <= w else { return nil }
    let c = arrays.confidence[index]
    guard c == 255 || c >= minConfidence else { return nil }
    if let crop, !crop.contains(cropWorldFromStored.map { Self.moved(p, by: $0) } ?? p) {
      return nil
    }
    let pixels = SIMD2(dx, dy) / w * halfSize
    let distanceSquared = (pixels * pixels).sum()
    guard distanceSquared <= radiusSquaredPixels else { return nil }
    return PickCandidate(index: index, depth: w, distanceSquared: distanceSquared)
  }

  /// The candidates in `range` (up to `PointPicker.candidatesPerTask`) and the least
  /// depth of all of them.
  func candidates(_ range: Range<Int>, _ arrays: PickArrays) -> PickPassResult {
    var result = PickPassResult()
    for index in range {
      guard let candidate = candidate(index, arrays) else { continue }
      result.nearestDepth = min(result.nearestDepth ?? candidate.depth, candidate.depth)
      if result.candidates.count < PointPicker.candidatesPerTask {
        result.candidates.append(candidate)
      } else {
        result.overflowed = true
      }
    }
    return result
  }

  /// The best candidate in `range` no deeper than `maximumDepth`.
  func best(_ range: Range<Int>, _ arrays: PickArrays, maximumDepth: Float) -> PickCandidate? {
    var best: PickCandidate?
    for index in range {
      guard let candidate = candidate(index, arrays), candidate.depth <= maximumDepth else {
        continue
      }
      best = PickCandidate.better(best, candidate)
    }
    return best
  }

  /// `p` moved by `worldFromStored`, in single precision as the renderers draw it.
  @inline(__always)
  static func moved(_ p: Point3, by worldFromStored: Matrix4) -> Point3 {
    let moved = worldFromStored.transform(SIMD4(p.x, p.y, p.z, 1))
    return Point3(moved.x, moved.y, moved.z)
  }
}
