import CloudScrubCore
import Foundation
import Testing

/// Picking the points where their frames' pose corrections draw them.
@Suite struct CorrectedPickingTests {
  /// A 90° frustum (f = 1), aspect 1, near 1 m, far 3 m, looking down -z from the origin.
  static let projection = Matrix4(rowMajor: [
    1, 0, 0, 0,
    0, 1, 0, 0,
    0, 0, -2, -3,
    0, 0, -1, 0,
  ])

  /// Frame 0: one point at (-0.5, 0.5, -2); frame 1: one at (0.5, -0.3, -2).
  static func store() -> PointStore {
    var store = PointStore()
    for position in [Point3(-0.5, 0.5, -2), Point3(0.5, -0.3, -2)] {
      var frame = FramePoints()
      frame.positions = [position]
      frame.colors = [RGB8(9, 9, 9)]
      frame.confidence = [2]
      store.append(frame, frameIndex: store.frameCount)
    }
    return store
  }

  static func request(cursor: SIMD2<Float>) -> PickRequest {
    PickRequest(
      viewProjection: projection, viewportWidthPixels: 100, viewportHeightPixels: 100,
      cursorPixels: cursor, radiusPixels: 1, ranges: [0..<2])
  }

  @Test func aClickMeetsThePointWhereItsCorrectionDrawsIt() throws {
    let store = Self.store()
    // Frame 1 turned a quarter about z and moved by (0.2, -0.72, 0): (0.5, -0.3, -2)
    // goes to (0.5, -0.22, -2), ndc (0.25, -0.11), 44.5 px from the bottom: y 55.5 down.
    let corrections = [
      Matrix4.identity,
      Matrix4(
        Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(0.2, -0.72, 0))),
    ]
    let there = Self.request(cursor: SIMD2(62.5, 55.5))
    let picked = try #require(PointPicker.pick(there, in: store, corrections: corrections))
    #expect(picked.index == 1 && picked.timelineFrame == 1)
    #expect(abs(picked.positionMeters.x - 0.5) < 1e-6)
    #expect(abs(picked.positionMeters.y + 0.22) < 1e-6)
    #expect(abs(picked.positionMeters.z + 2) < 1e-6)
    #expect(picked.distancePixels < 0.01)
    // Where the recorded pose put it (y 57.5 down), nothing is drawn any more.
    let stored = Self.request(cursor: SIMD2(62.5, 57.5))
    #expect(PointPicker.pick(stored, in: store) != nil)
    #expect(PointPicker.pick(stored, in: store, corrections: corrections) == nil)
    // Frame 0's identity keeps its point where it is stored: ndc (-0.25, 0.25).
    let other = try #require(
      PointPicker.pick(Self.request(cursor: SIMD2(37.5, 37.5)), in: store, corrections: corrections)
    )
    #expect(other.index == 0 && other.positionMeters == Point3(-0.5, 0.5, -2))
  }

  /// Frame 1's quarter turn of the first test: (0.5, -0.3, -2) is drawn at
  /// (0.5, -0.22, -2).
  static let quarterTurn = [
    Matrix4.identity,
    Matrix4(Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: SIMD3(0.2, -0.72, 0))),
  ]

  @Test func theCropIsTestedWhereTheCorrectionDrawsThePoint() throws {
    let store = Self.store()
    // A box around the drawn (0.5, -0.22, -2) but not the stored (0.5, -0.3, -2).
    var there = Self.request(cursor: SIMD2(62.5, 55.5))
    there.crop = CropBox(min: Point3(0, -0.25, -3), max: Point3(1, -0.2, -1))
    let picked = try #require(PointPicker.pick(there, in: store, corrections: Self.quarterTurn))
    #expect(picked.index == 1)
    // A box around the stored position only: the drawn point is outside it.
    there.crop = CropBox(min: Point3(0, -0.35, -3), max: Point3(1, -0.28, -1))
    #expect(PointPicker.pick(there, in: store, corrections: Self.quarterTurn) == nil)
    // Frame 0 (identity) is cropped where it is stored, as before.
    var other = Self.request(cursor: SIMD2(37.5, 37.5))
    other.crop = CropBox(min: Point3(-1, 0, -3), max: Point3(0, 1, -1))
    #expect(PointPicker.pick(other, in: store, corrections: Self.quarterTurn)?.index == 0)
  }

  @Test func pickedPointsMoveWithThePosesShown() throws {
    let store = Self.store()
    var selection = PointSelection()
    selection.apply(.setMode(.measure))
    // Picked while the refined poses show: frame 1's point where it is drawn, then
    // frame 0's.
    let first = PointPicker.pick(
      Self.request(cursor: SIMD2(62.5, 55.5)), in: store, corrections: Self.quarterTurn)
    selection.apply(.picked(first))
    selection.apply(
      .picked(
        PointPicker.pick(
          Self.request(cursor: SIMD2(37.5, 37.5)), in: store, corrections: Self.quarterTurn)))
    // (-0.5, 0.5, -2) to (0.5, -0.22, -2): √(1 + 0.72²).
    let refined = try #require(selection.distanceMeters)
    #expect(abs(refined - (1 + 0.72 * 0.72).squareRoot()) < 1e-6)
    // The recorded poses shown again: frame 1's end goes back to where it is stored.
    selection.apply(selection.following(store, corrections: nil))
    #expect(selection.measureStart?.positionMeters == Point3(0.5, -0.3, -2))
    #expect(selection.measureEnd?.positionMeters == Point3(-0.5, 0.5, -2))
    #expect(selection.picked?.positionMeters == Point3(-0.5, 0.5, -2))
    // (-0.5, 0.5, -2) to (0.5, -0.3, -2): √(1 + 0.8²).
    let recorded = try #require(selection.distanceMeters)
    #expect(abs(recorded - (1 + 0.8 * 0.8).squareRoot()) < 1e-6)
    // And refined again: exactly where a fresh pick puts it.
    selection.apply(selection.following(store, corrections: Self.quarterTurn))
    #expect(selection.measureStart?.positionMeters == first?.positionMeters)
    #expect(selection.measureStart?.index == 1 && selection.measureStart?.timelineFrame == 1)
    #expect(abs((selection.distanceMeters ?? 0) - refined) < 1e-9)
  }
}
