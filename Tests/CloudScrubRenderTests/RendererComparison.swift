import CloudScrubCore
import Foundation

@testable import CloudScrubRender

/// Draws the same viewer state with OpenGL's points and with the CPU rasterizer, in
/// one headless EGL context, and compares the pictures.
final class RendererComparison {
  let context: EGLHeadlessContext
  let backend: GLBackend
  let renderer: SceneRenderer
  let width: Int
  let height: Int
  let target: OffscreenTarget

  init(width: Int, height: Int) throws {
    context = try EGLHeadlessContext()
    backend = try GLBackend()
    renderer = SceneRenderer(backend: backend)
    self.width = width
    self.height = height
    target = try OffscreenTarget(width: width, height: height)
    backend.outputFramebuffer = target.framebuffer
  }

  /// The picture of `state` drawn with `pointRenderer`, top row first.
  func picture(_ state: ViewerState, store: PointStore, with pointRenderer: PointRenderer) throws
    -> RGBImage
  {
    backend.pointDrawer = pointRenderer.makeDrawer()
    try renderer.sync(with: store)
    renderer.draw(state: state, store: store)
    return target.readPixels()
  }

  /// The fraction of pixels whose largest channel difference exceeds `threshold`.
  static func differingFraction(_ a: RGBImage, _ b: RGBImage, threshold: Int) -> Double {
    var differing = 0
    let pixels = a.width * a.height
    for pixel in 0..<pixels {
      var largest = 0
      for channel in 0..<3 {
        largest = max(
          largest, abs(Int(a.pixels[pixel * 3 + channel]) - Int(b.pixels[pixel * 3 + channel])))
      }
      if largest > threshold { differing += 1 }
    }
    return Double(differing) / Double(max(1, pixels))
  }

  /// Pixels that are not the background grey.
  static func coveredFraction(_ image: RGBImage, background: UInt8 = 26) -> Double {
    let pixels = image.width * image.height
    var covered = 0
    for pixel in 0..<pixels
    where image.pixels[pixel * 3..<pixel * 3 + 3].contains(where: { $0 != background }) {
      covered += 1
    }
    return Double(covered) / Double(max(1, pixels))
  }
}

/// Test scenes: a store of several frames with surfaces seen from a fitted camera.
enum ComparisonScenes {
  /// `frames` frames of points on a sphere shell, a ground plane and a scatter,
  /// coloured by position, with confidence cycling through 0, 1, 2 and 255, and (unless
  /// `intensity` is false) intensity levels that step by 97 from point to point.
  static func store(pointsPerFrame: Int, frames: Int, seed: UInt64, intensity: Bool = true)
    -> PointStore
  {
    var random = SplitMix64(seed: seed)
    func unit() -> Float { Float(random.next() >> 40) / Float(1 << 24) }
    var store = PointStore()
    var index = 0
    for frame in 0..<frames {
      var points = FramePoints()
      for _ in 0..<pointsPerFrame {
        let kind = index % 3
        var p: SIMD3<Float>
        switch kind {
        case 0:
          let z = unit() * 2 - 1
          let angle = unit() * 2 * .pi
          let r = (1 - z * z).squareRoot()
          p = SIMD3(r * cos(angle), r * sin(angle), z) * 0.6 + SIMD3(0, 0, 0.7)
        case 1:
          p = SIMD3(unit() * 3 - 1.5, unit() * 3 - 1.5, 0)
        default:
          p = SIMD3(unit() * 3 - 1.5, unit() * 3 - 1.5, unit() * 1.5)
        }
        points.positions.append(Point3(p.x, p.y, p.z))
        points.colors.append(RGB8(UInt8(unit() * 255), UInt8(index % 251), UInt8(frame * 37 % 256)))
        points.confidence.append([0, 1, 2, 255][index % 4])
        if intensity { points.intensity.append(UInt8(truncatingIfNeeded: index &* 97)) }
        index += 1
      }
      store.append(points, frameIndex: frame)
    }
    return store
  }

  /// The viewer state after loading `store`: z up, the camera fitted, then orbited.
  static func state(_ store: PointStore, width: Int, height: Int) -> ViewerState {
    var state = ViewerState(viewportWidth: width, viewportHeight: height)
    state.apply(.sceneAppended(ViewerScene(bounds: store.cloud().bounds, up: .z)))
    state.apply(
      .playback(.framesLoaded(timestampsSeconds: (0..<store.frameCount).map { Double($0) / 30 })))
    state.apply(.playback(.jumpToEnd))
    state.apply(.camera(.orbit(azimuthRadians: 0.6, elevationRadians: 0.45, distanceMeters: nil)))
    return state
  }
}
