import Testing

@testable import CloudScrubCore

/// A recording's world up axis reaches the viewer state and the height band.
@Suite struct WorldUpTests {
  /// A camera at (1, 2, 0.5) looking along world +y, level, in a z-up world: OpenCV
  /// camera x → world x, camera y (down) → world −z, camera z (forward) → world +y.
  static let levelPose = CameraPose(
    worldFromCamera: Transform3D(rowMajor: [1, 0, 0, 1, 0, 0, 1, 2, 0, -1, 0, 0.5, 0, 0, 0, 1]),
    axes: .openCV)

  static func frame(_ index: Int, points: [Point3]) -> LoadedFrame {
    var framePoints = FramePoints()
    framePoints.positions = points
    framePoints.colors = points.map { _ in RGB8(1, 2, 3) }
    framePoints.confidence = points.map { _ in 2 }
    let info = FrameInfo(
      timestampSeconds: Double(index),
      intrinsics: CameraIntrinsics(fx: 100, fy: 100, cx: 50, cy: 40, width: 100, height: 80),
      pose: levelPose)
    return LoadedFrame(
      frameIndex: index, timestampSeconds: Double(index), info: info, points: framePoints)
  }

  static let points = [Point3(0, 3, 0), Point3(2, 5, 1.5), Point3(1, 4, 0.2)]

  @Test func firstFramesTellTheStateTheWorldsUpAxisOnce() {
    var content = ViewerContent(worldUp: .z)
    let first = content.absorb([Self.frame(0, points: Self.points)])
    #expect(first.first == .worldUpKnown(.z))
    let second = content.absorb([Self.frame(1, points: Self.points)])
    #expect(!second.contains(.worldUpKnown(.z)))
    var state = ViewerState(viewportWidth: 400, viewportHeight: 300)
    for command in first + second { state.apply(command) }
    #expect(state.scene.up == .z && state.camera.up == .z)
    // World +z is up on the screen, and the grid's ground normal is z.
    #expect(state.camera.screenUp.z > 0.5)
    #expect(abs(state.camera.right.z) < 1e-5)
    // The first view looks the way the phone did (along +y), from above.
    #expect(state.camera.forward.y > 0.5 && abs(state.camera.forward.x) < 1e-4)
    #expect(state.camera.forward.z < 0)
    // Reset keeps the axis.
    state.apply(.camera(.reset))
    #expect(state.camera.up == .z && state.camera.screenUp.z > 0.5)
  }

  @Test func yUpContentKeepsTheDefault() {
    var content = ViewerContent()
    var state = ViewerState()
    for command in content.absorb([Self.frame(0, points: Self.points)]) { state.apply(command) }
    #expect(state.scene.up == .y && state.camera.up == .y)
  }

  @Test func heightBandMeasuresAlongTheWorldsUpAxis() throws {
    // Heights along z: 0, 1.5, 0.2; along y: 3, 5, 4.
    #expect(
      Crop.mask(Self.points, box: nil, heightBandMeters: 0.1...2, up: .z) == [false, true, true])
    #expect(
      Crop.mask(Self.points, box: nil, heightBandMeters: 0.1...2, up: .y) == [false, false, false])
    #expect(Crop.mask(Self.points, box: nil, heightBandMeters: 3.5...5) == [false, true, true])
    var options = CleaningOptions(heightBandMeters: -1...0.1)
    options.worldUp = .z
    let cloud = PointCloud(positions: Self.points)
    #expect(try CleaningPipeline.run(cloud, options: options).cloud.positions == [Point3(0, 3, 0)])
  }
}
