/// The six face handles of a crop box on screen, and what dragging one does. Camera
/// maths on numbers: the window gives cursor positions in pixels (top-left origin)
/// within a viewport.
public struct CropBoxHandles: Sendable {
  /// A face of the box: an axis (0 x, 1 y, 2 z) and a side.
  public struct Face: Equatable, Hashable, Sendable {
    public var axis: Int
    public var isMax: Bool
    public init(axis: Int, isMax: Bool) {
      self.axis = axis
      self.isMax = isMax
    }
  }

  public var box: CropBox
  public var viewProjection: Matrix4
  public var viewportWidth: Float
  public var viewportHeight: Float

  public init(box: CropBox, viewProjection: Matrix4, viewportWidth: Int, viewportHeight: Int) {
    self.box = box
    self.viewProjection = viewProjection
    self.viewportWidth = Float(max(1, viewportWidth))
    self.viewportHeight = Float(max(1, viewportHeight))
  }

  public static let faces: [Face] = (0..<3).flatMap { axis in
    [Face(axis: axis, isMax: false), Face(axis: axis, isMax: true)]
  }

  /// The centre of a face in world space.
  public func center(of face: Face) -> SIMD3<Float> {
    let lo = SIMD3(box.min.x, box.min.y, box.min.z)
    let hi = SIMD3(box.max.x, box.max.y, box.max.z)
    var point = (lo + hi) / 2
    point[face.axis] = face.isMax ? hi[face.axis] : lo[face.axis]
    return point
  }

  /// Where a world point lands in the viewport, in pixels; nil behind the camera.
  public func pixel(of world: SIMD3<Float>) -> SIMD2<Float>? {
    let clip = viewProjection.transform(SIMD4(world, 1))
    guard clip.w > 1e-6 else { return nil }
    let ndc = SIMD2(clip.x, clip.y) / clip.w
    return SIMD2((ndc.x + 1) / 2 * viewportWidth, (1 - ndc.y) / 2 * viewportHeight)
  }

  /// The face whose handle is within `radiusPixels` of the cursor (the nearest one).
  public func face(at cursor: SIMD2<Float>, radiusPixels: Float = 12) -> Face? {
    var best: (Face, Float)?
    for face in Self.faces {
      guard let p = pixel(of: center(of: face)) else { continue }
      let d = ((p - cursor) * (p - cursor)).sum().squareRoot()
      if d <= radiusPixels && d < (best?.1 ?? .infinity) { best = (face, d) }
    }
    return best?.0
  }

  /// The box after dragging `face` by `delta` pixels: the face moves along its axis by
  /// the world distance whose on-screen image is the drag's component along that
  /// axis's on-screen direction. A face never crosses the opposite one.
  public func dragging(_ face: Face, by delta: SIMD2<Float>) -> CropBox {
    let c = center(of: face)
    var unit = SIMD3<Float>(repeating: 0)
    unit[face.axis] = 1
    guard let a = pixel(of: c), let b = pixel(of: c + unit) else { return box }
    let screenPerMeter = b - a
    let lengthSquared = (screenPerMeter * screenPerMeter).sum()
    guard lengthSquared > 1e-6 else { return box }
    let meters = (delta * screenPerMeter).sum() / lengthSquared
    var lo = SIMD3(box.min.x, box.min.y, box.min.z)
    var hi = SIMD3(box.max.x, box.max.y, box.max.z)
    let gap: Float = 1e-3
    if face.isMax {
      hi[face.axis] = max(hi[face.axis] + meters, lo[face.axis] + gap)
    } else {
      lo[face.axis] = min(lo[face.axis] + meters, hi[face.axis] - gap)
    }
    return CropBox(min: Point3(lo.x, lo.y, lo.z), max: Point3(hi.x, hi.y, hi.z))
  }
}
