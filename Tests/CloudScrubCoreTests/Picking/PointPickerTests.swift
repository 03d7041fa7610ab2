import Foundation
import Testing

@testable import CloudScrubCore

/// Picking against hand-worked projections: a camera at the origin looking down -z with
/// a 90° field of view (focal 1 in NDC) in a 200 × 200 viewport, so a point (x, y, z)
/// lands at window pixel (100 + 100·x/-z, 100 - 100·y/-z) from the top-left corner.
@Suite struct PointPickerTests {
  /// The projection described above, near 0.1 m and far 100 m.
  static let viewProjection: Matrix4 = {
    let near: Float = 0.1
    let far: Float = 100
    return Matrix4(rowMajor: [
      1, 0, 0, 0,
      0, 1, 0, 0,
      0, 0, -(far + near) / (far - near), -2 * far * near / (far - near),
      0, 0, -1, 0,
    ])
  }()

  /// A store of frames, each a list of (position, confidence).
  static func store(_ frames: [[(Point3, UInt8)]]) -> PointStore {
    var store = PointStore()
    for (k, frame) in frames.enumerated() {
      var points = FramePoints()
      for (position, confidence) in frame {
        points.positions.append(position)
        points.colors.append(RGB8(10, 20, 30))
        points.confidence.append(confidence)
      }
      // Recording frames 10, 20, 30, …: the timeline position and the recording's
      // index differ.
      store.append(points, frameIndex: 10 * (k + 1))
    }
    return store
  }

  static func request(
    at cursor: SIMD2<Float>, ranges: [Range<Int>], minConfidence: ConfidenceLevel = .low,
    crop: CropBox? = nil
  ) -> PickRequest {
    PickRequest(
      viewProjection: viewProjection, viewportWidthPixels: 200, viewportHeightPixels: 200,
      cursorPixels: cursor, radiusPixels: 6, ranges: ranges, minConfidence: minConfidence,
      crop: crop)
  }

  // (0.5, 0.25, -2) → pixel (125, 87.5); (-0.5, 0, -2) → (75, 100); (0, 0, -3) → (100, 100).
  static let a = Point3(0.5, 0.25, -2)
  static let b = Point3(-0.5, 0, -2)
  static let c = Point3(0, 0, -3)

  @Test func clickOnAProjectedPointPicksIt() throws {
    let store = Self.store([[(Self.b, 2)], [(Self.c, 2), (Self.a, 1)]])
    let picked = try #require(
      PointPicker.pick(Self.request(at: SIMD2(125, 87.5), ranges: [0..<3]), in: store))
    #expect(picked.index == 2)
    #expect(picked.positionMeters == Self.a)
    #expect(picked.timelineFrame == 1)
    #expect(picked.recordingFrame == 20)
    #expect(picked.confidence == 1)
    #expect(picked.distancePixels < 1e-3)
    // Three pixels right and four down: 5 pixels away, still within the radius.
    let near = try #require(
      PointPicker.pick(Self.request(at: SIMD2(128, 91.5), ranges: [0..<3]), in: store))
    #expect(near.index == 2)
    #expect(abs(near.distancePixels - 5) < 1e-3)
    let other = try #require(
      PointPicker.pick(Self.request(at: SIMD2(74, 101), ranges: [0..<3]), in: store))
    #expect(other.index == 0)
    #expect(other.timelineFrame == 0)
    #expect(other.recordingFrame == 10)
  }

  @Test func clickFarFromEveryPointPicksNothing() {
    let store = Self.store([[(Self.a, 2), (Self.b, 2), (Self.c, 2)]])
    // 7 pixels from a, beyond the 6-pixel radius.
    #expect(PointPicker.pick(Self.request(at: SIMD2(132, 87.5), ranges: [0..<3]), in: store) == nil)
    #expect(PointPicker.pick(Self.request(at: SIMD2(10, 10), ranges: [0..<3]), in: store) == nil)
  }

  @Test func onlyShownPointsArePicked() throws {
    let store = Self.store([[(Self.a, 0)], [(Self.a, 2)], [(Self.c, 2)]])
    let click = SIMD2<Float>(125, 87.5)
    // Outside the timeline window.
    #expect(PointPicker.pick(Self.request(at: click, ranges: [2..<3]), in: store) == nil)
    // Below the minimum confidence: the low one is skipped, the high one taken.
    let picked = try #require(
      PointPicker.pick(Self.request(at: click, ranges: [0..<2], minConfidence: .medium), in: store))
    #expect(picked.index == 1)
    // Outside the crop box.
    let crop = CropBox(min: Point3(-1, -1, -5), max: Point3(0.4, 1, 0))
    #expect(
      PointPicker.pick(Self.request(at: click, ranges: [0..<3], crop: crop), in: store) == nil)
    // Behind the camera: (-0.5, -0.25, 2) would land on the same pixel through w < 0.
    let behind = Self.store([[(Point3(-0.5, -0.25, 2), 2)]])
    #expect(PointPicker.pick(Self.request(at: click, ranges: [0..<1]), in: behind) == nil)
  }

  @Test func thePointInFrontWinsOverOneBehindNearerTheRay() throws {
    // (1, 0.5, -4) lands exactly on pixel (125, 87.5) too, twice as deep as a.
    // Clicking 2 pixels off a: a is on the front surface, the far one is not.
    let far = Point3(1, 0.5, -4)
    let store = Self.store([[(far, 2), (Point3(0.51, 0.25, -2), 2)]])
    let picked = try #require(
      PointPicker.pick(Self.request(at: SIMD2(125, 87.5), ranges: [0..<2]), in: store))
    #expect(picked.index == 1)
    #expect(abs(picked.distancePixels - 0.5) < 1e-3)
    // Points of one surface: the nearest to the click wins, not the nearest in depth.
    let surface = Self.store([[(Point3(0.52, 0.25, -2), 2), (Point3(0.5, 0.25, -2.02), 2)]])
    let onSurface = try #require(
      PointPicker.pick(Self.request(at: SIMD2(125, 87.5), ranges: [0..<2]), in: surface))
    #expect(onSurface.index == 1)
  }

  @Test func manyCandidatesGiveTheSameAnswerAsFew() throws {
    // More candidates near the click than a task keeps: the second step projects the
    // points again and must find the same point.
    var frame: [(Point3, UInt8)] = []
    for k in 0..<(PointPicker.candidatesPerTask + 5000) {
      // On a ring 3 pixels around the click (x, y offset of 0.06 m at 2 m = 3 pixels).
      let angle = Float(k) * 0.001
      frame.append((Point3(0.5 + 0.06 * cos(angle), 0.25 + 0.06 * sin(angle), -2), 2))
    }
    frame.append((Point3(0.502, 0.25, -2), 2))
    let store = Self.store([frame])
    let picked = try #require(
      PointPicker.pick(Self.request(at: SIMD2(125, 87.5), ranges: [0..<store.count]), in: store))
    #expect(picked.index == store.count - 1)
    #expect(abs(picked.distancePixels - 0.1) < 1e-3)
  }

  @Test func pickFollowsTheViewerStateCamera() throws {
    let store = Self.store([[(Point3(0, 0, 0), 2), (Point3(0.3, 0.2, 0.1), 2)]])
    var state = ViewerState(viewportWidth: 640, viewportHeight: 480)
    state.apply(.playback(.framesLoaded(timestampsSeconds: [0])))
    state.apply(.camera(.orbit(azimuthRadians: 0.4, elevationRadians: 0.3, distanceMeters: 2)))
    let ndc = ViewerApprox.ndc(
      SIMD3(0.3, 0.2, 0.1), view: state.viewMatrix, projection: state.projectionMatrix)
    let cursor = SIMD2((ndc.x + 1) * 320, (1 - ndc.y) * 240)
    let picked = try #require(
      PointPicker.pick(
        PickRequest(state: state, frameRanges: store.frameRanges, cursorPixels: cursor),
        in: store))
    #expect(picked.index == 1)
  }

  @Test func frameOfPointSkipsEmptyFrames() {
    // Frames of 2, 0, 3 points.
    let ranges = [0, 2, 2, 5]
    #expect((0..<5).map { PointPicker.frame(ofPoint: $0, frameRanges: ranges) } == [0, 0, 2, 2, 2])
  }
}
