import Testing

@testable import CloudScrubCore

/// Inspecting and measuring as commands, the click-or-drag rule, and the distance of
/// two known points.
@Suite struct PointSelectionTests {
  static func point(_ index: Int, _ p: Point3) -> PickedPoint {
    PickedPoint(
      index: index, positionMeters: p, timelineFrame: index, recordingFrame: index,
      confidence: 2, distancePixels: 0)
  }

  @Test func distanceOfTwoKnownPoints() throws {
    // A 3-4-12 box diagonal: 13 m.
    let a = Self.point(0, Point3(1, 2, 3))
    let b = Self.point(1, Point3(4, 6, 15))
    var selection = PointSelection()
    selection.apply(.setMode(.measure))
    selection.apply(.picked(a))
    #expect(selection.distanceMeters == nil)
    selection.apply(.picked(b))
    #expect(selection.measureStart == a)
    #expect(selection.measureEnd == b)
    let distance = try #require(selection.distanceMeters)
    #expect(abs(distance - 13) < 1e-12)
    // Far from the origin single precision would lose millimetres; the distance of two
    // points 1 mm apart at 1 km is still 1 mm (within float spacing, 61 µm there).
    let far = PointSelection.distanceMeters(Point3(1000, 0, 0), Point3(1000.001, 0, 0))
    #expect(abs(far - 0.001) < 1e-4)
  }

  @Test func aThirdClickStartsANewMeasurement() {
    let a = Self.point(0, Point3(0, 0, 0))
    let b = Self.point(1, Point3(1, 0, 0))
    let c = Self.point(2, Point3(0, 2, 0))
    var selection = PointSelection()
    selection.apply(.setMode(.measure))
    selection.apply(.picked(a))
    selection.apply(.picked(b))
    selection.apply(.picked(c))
    #expect(selection.measureStart == c)
    #expect(selection.measureEnd == nil)
    // A miss keeps the measurement under way.
    selection.apply(.picked(nil))
    #expect(selection.measureStart == c)
    #expect(selection.picked == nil)
    selection.apply(.picked(a))
    #expect(selection.distanceMeters == 2)
  }

  @Test func inspectingNeverMeasures() {
    var selection = PointSelection()
    selection.apply(.picked(Self.point(0, Point3(0, 0, 0))))
    selection.apply(.picked(Self.point(1, Point3(1, 0, 0))))
    #expect(selection.picked?.index == 1)
    #expect(selection.measureStart == nil)
    #expect(selection.distanceMeters == nil)
    selection.apply(.setMode(.measure))
    selection.apply(.picked(Self.point(2, Point3(0, 0, 0))))
    selection.apply(.setMode(.inspect))
    #expect(selection.measureStart == nil)
    #expect(selection.picked?.index == 2)
    selection.apply(.clear)
    #expect(selection == PointSelection())
  }

  @Test func aPressWithoutMovingIsAClick() {
    var clicks = ClickDetector()
    clicks.down(at: SIMD2(10, 10))
    clicks.moved(to: SIMD2(12, 11))
    #expect(clicks.up() == SIMD2(10, 10))
    clicks.down(at: SIMD2(10, 10))
    clicks.moved(to: SIMD2(14, 10))
    // Moving back does not undo a drag.
    clicks.moved(to: SIMD2(10, 10))
    #expect(clicks.up() == nil)
    #expect(clicks.up() == nil)
    clicks.down(at: SIMD2(1, 1))
    clicks.cancel()
    #expect(clicks.up() == nil)
  }
}
