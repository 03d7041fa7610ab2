import Testing

@testable import CloudScrubCore

@Suite struct CropBoxHandlesTests {
  /// A camera 10 m in front of the origin looking down −z, 90° field of view, 200×200
  /// pixels: at z = 0 one metre is 10 pixels.
  static func handles(_ box: CropBox) -> CropBoxHandles {
    let view = Matrix4.lookAt(eye: SIMD3(0, 0, 10), target: .zero, up: SIMD3(0, 1, 0))
    let projection = Matrix4.perspective(
      verticalFieldOfViewRadians: .pi / 2, aspect: 1, nearMeters: 0.1, farMeters: 100)
    return CropBoxHandles(
      box: box, viewProjection: projection * view, viewportWidth: 200, viewportHeight: 200)
  }

  static let box = CropBox(min: Point3(-1, -2, -1), max: Point3(3, 2, 1))

  @Test func faceCentresLandWhereTheCameraSeesThem() throws {
    let h = Self.handles(Self.box)
    // The +x face's centre (3, 0, 0) is 3 m right of the axis at 10 m: 30 px right.
    let p = try #require(h.pixel(of: h.center(of: .init(axis: 0, isMax: true))))
    #expect(abs(p.x - 130) < 1e-3 && abs(p.y - 100) < 1e-3)
  }

  @Test func theNearestHandleWithinTheRadiusIsHit() {
    let h = Self.handles(Self.box)
    #expect(h.face(at: SIMD2(128, 101)) == .init(axis: 0, isMax: true))
    // The −y face's centre (1, −2, 0) is at (110, 120).
    #expect(h.face(at: SIMD2(110, 121)) == .init(axis: 1, isMax: false))
    #expect(h.face(at: SIMD2(10, 10)) == nil)
  }

  @Test func draggingAFaceMovesItByTheDragsWorldLength() {
    let h = Self.handles(Self.box)
    // 20 px to the right at the +x face (at z = 0: 10 px a metre) is 2 m.
    let moved = h.dragging(.init(axis: 0, isMax: true), by: SIMD2(20, 7))
    #expect(abs(moved.max.x - 5) < 1e-3)
    #expect(moved.min == Self.box.min && moved.max.y == 2 && moved.max.z == 1)
    // Dragging up (negative pixel y) raises the top face.
    let raised = h.dragging(.init(axis: 1, isMax: true), by: SIMD2(0, -10))
    #expect(abs(raised.max.y - 3) < 1e-3)
  }

  @Test func aFaceNeverCrossesTheOppositeOne() {
    let h = Self.handles(Self.box)
    let squashed = h.dragging(.init(axis: 0, isMax: false), by: SIMD2(500, 0))
    #expect(squashed.min.x < squashed.max.x)
    #expect(abs(squashed.max.x - 3) < 1e-6)
  }
}

@Suite struct UndoHistoryTests {
  @Test func everyChangeIsOneStepBackAndForward() {
    var history = UndoHistory(1)
    history.set(2)
    history.set(2)  // no change, no step
    history.set(3)
    history.undo()
    #expect(history.current == 2)
    history.undo()
    #expect(history.current == 1)
    #expect(!history.canUndo)
    history.undo()
    #expect(history.current == 1)
    history.redo()
    #expect(history.current == 2)
    // A new change after undoing forgets the undone future.
    history.set(5)
    #expect(!history.canRedo)
    history.undo()
    #expect(history.current == 2)
  }

  @Test func previousAndNextAreWhatUndoAndRedoWouldGoTo() {
    var history = UndoHistory(1)
    #expect(history.previous == nil && history.next == nil)
    history.set(2)
    history.set(3)
    #expect(history.previous == 2 && history.next == nil)
    history.undo()
    #expect(history.previous == 1 && history.next == 3)
    // A drag under way goes back to where it began, and forgets the future once it ends.
    history.edit(7, finished: false)
    #expect(history.previous == 2 && history.next == nil)
    history.edit(2, finished: false)
    #expect(history.previous == 1 && history.next == 3)
  }

  @Test func theOldestStepsAreForgottenPastTheLimit() {
    var history = UndoHistory(0, limit: 3)
    for v in 1...5 { history.set(v) }
    history.undo()
    history.undo()
    history.undo()
    history.undo()
    #expect(history.current == 2)
  }

  @Test func aSliderDragIsOneStepHoweverManyTicksItTakes() {
    var history = UndoHistory(10)
    for tick in 11...40 { history.edit(tick, finished: false) }
    #expect(history.current == 40)
    #expect(history.isEditing)
    #expect(!history.canUndo)
    history.edit(41, finished: true)
    #expect(!history.isEditing)
    history.undo()
    #expect(history.current == 10)
    #expect(!history.canUndo)
    history.redo()
    #expect(history.current == 41)
    // A drag back to where it began is no step.
    for tick in [42, 43, 41] { history.edit(tick, finished: false) }
    history.edit(41, finished: true)
    history.undo()
    #expect(history.current == 10)
    // Undo in the middle of a drag finishes it first, then steps back over it.
    history.set(50)
    for tick in 51...55 { history.edit(tick, finished: false) }
    history.undo()
    #expect(history.current == 50)
    history.undo()
    #expect(history.current == 10)
  }
}
