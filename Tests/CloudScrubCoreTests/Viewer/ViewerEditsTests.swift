import CloudScrubCore
import TestSupport
import Testing

/// The user's edits in the reducer: cleaning settings and applied refinements share one
/// undo history, and which poses the scene shows changes by command (applying, B, undo,
/// redo) with nothing copied in from outside.
@Suite struct ViewerEditsTests {
  static let voxel = CleaningOptions(voxelSizeMeters: 0.02)
  /// Frame 1 lifted 0.5 m along z; frame 0 kept.
  static let lift = Refinements.moving(by: [
    .identity, Transform3D(axisAngle: .zero, translation: SIMD3(0, 0, 0.5)),
  ])

  /// Frame 1's camera centre as the scene shows it.
  static func frame1(_ state: ViewerState) -> SIMD3<Double> {
    state.scene.worldFromCamera[1].translation
  }

  @Test func undoTakesBackTheLatestEditWhicheverKindItWas() {
    var state = ShownPosesTests.state()
    state.apply(.edit(.setCleaning(Self.voxel, finished: true)))
    state.apply(.edit(.applyRefinement(Self.lift)))
    #expect(state.edits.cleaning == Self.voxel)
    #expect(Self.frame1(state) == SIMD3(1, 0, 0.5))

    state.apply(.edit(.undo))
    #expect(state.edits.appliedRefinement == nil)
    #expect(state.scene.poseCorrections == nil)
    #expect(Self.frame1(state) == SIMD3(1, 0, 0))
    #expect(state.edits.cleaning == Self.voxel)

    state.apply(.edit(.undo))
    #expect(state.edits.cleaning == CleaningOptions())
    #expect(!state.edits.history.canUndo)

    state.apply(.edit(.redo))
    #expect(state.edits.cleaning == Self.voxel)
    #expect(state.edits.appliedRefinement == nil)
    state.apply(.edit(.redo))
    #expect(state.edits.cleaning == Self.voxel)
    #expect(state.edits.appliedRefinement == Self.lift)
    #expect(Self.frame1(state) == SIMD3(1, 0, 0.5))
    #expect(!state.edits.history.canRedo)
  }

  @Test func bSwitchesTheShownPosesOnceARefinementIsApplied() {
    var state = ShownPosesTests.state()
    var mapper = InputMapper()
    let pressB = { for command in mapper.keyPressed(.letter("b")) { state.apply(command) } }
    pressB()
    #expect(state.edits.showsRefinedPoses)  // nothing applied: nothing to switch
    #expect(state.scene.poseCorrections == nil)

    state.apply(.edit(.applyRefinement(Self.lift)))
    #expect(state.edits.shownRefinement == Self.lift)
    #expect(state.scene.poseCorrections == Self.lift.corrections.refinedFromOriginal)
    pressB()
    #expect(state.edits.shownRefinement == nil)
    #expect(state.edits.appliedRefinement == Self.lift)
    #expect(state.scene.poseCorrections == nil)
    #expect(state.scene.worldFromCamera == state.scene.worldFromRecordedCamera)
    pressB()
    #expect(Self.frame1(state) == SIMD3(1, 0, 0.5))

    // The panel's checkbox says which, and B is not a step: undo takes the refinement.
    state.apply(.edit(.showRefinedPoses(false)))
    #expect(Self.frame1(state) == SIMD3(1, 0, 0))
    state.apply(.edit(.showRefinedPoses(true)))
    state.apply(.edit(.undo))
    #expect(state.edits.appliedRefinement == nil)
    #expect(Self.frame1(state) == SIMD3(1, 0, 0))
  }

  @Test func aNewRefinementShowsEvenWhileTheRecordedPosesDid() {
    var state = ShownPosesTests.state()
    state.apply(.edit(.applyRefinement(Self.lift)))
    state.apply(.edit(.toggleRefinedPoses))
    let turn = Refinements.moving(by: [
      .identity, Transform3D(axisAngle: SIMD3(0, 0, Double.pi / 2), translation: .zero),
    ])
    state.apply(.edit(.applyRefinement(turn)))
    #expect(state.edits.showsRefinedPoses)
    #expect(ShownPosesTests.close(Self.frame1(state), SIMD3(0, 1, 0)))
    state.apply(.edit(.undo))
    #expect(state.edits.appliedRefinement == Self.lift)
    #expect(Self.frame1(state) == SIMD3(1, 0, 0.5))
  }

  @Test func undoAndRedoSayWhetherTheirStepIsARefinements() {
    var state = ShownPosesTests.state()
    state.apply(.edit(.applyRefinement(Self.lift)))
    #expect(state.edits.undoChangesRefinement)
    state.apply(.edit(.setCleaning(Self.voxel, finished: true)))
    // The latest step is the cleaning change: undo takes that back first.
    #expect(!state.edits.undoChangesRefinement)
    state.apply(.edit(.undo))
    #expect(state.edits.undoChangesRefinement)
    #expect(!state.edits.redoChangesRefinement)
    state.apply(.edit(.undo))
    #expect(state.edits.redoChangesRefinement)
    #expect(!state.edits.undoChangesRefinement)
  }

  @Test func aSliderDragIsOneStepAndARefinementLandingDuringItAnother() {
    var state = ViewerState()
    for millimetres in [5, 6, 7] {
      let options = CleaningOptions(voxelSizeMeters: Float(millimetres) / 1000)
      state.apply(.edit(.setCleaning(options, finished: false)))
    }
    #expect(state.edits.cleaning.voxelSizeMeters == 0.007)
    state.apply(.edit(.applyRefinement(Self.lift)))
    state.apply(.edit(.setCleaning(CleaningOptions(voxelSizeMeters: 0.008), finished: true)))
    #expect(state.edits.cleaning.voxelSizeMeters == 0.008)
    state.apply(.edit(.undo))
    #expect(state.edits.cleaning.voxelSizeMeters == 0.007)
    #expect(state.edits.appliedRefinement == Self.lift)
    state.apply(.edit(.undo))
    #expect(state.edits.cleaning.voxelSizeMeters == 0.007)
    #expect(state.edits.appliedRefinement == nil)
    state.apply(.edit(.undo))
    #expect(state.edits.cleaning == CleaningOptions())
  }

  @Test func aCropDragShowsItsBoxAndIsOneStepWhenItEnds() {
    let start = CropBox(min: Point3(-1, -1, -1), max: Point3(1, 1, 1))
    var state = ViewerState(edits: ViewerEdits(cleaning: CleaningOptions(crop: start)))
    for x in [1.5, 2, 2.5] as [Float] {
      let box = CropBox(min: start.min, max: Point3(x, 1, 1))
      state.apply(.edit(.dragCrop(box, finished: false)))
      #expect(state.edits.cleaning.crop == box)
      #expect(state.edits.history.current.cleaning.crop == start)
    }
    let end = CropBox(min: start.min, max: Point3(3, 1, 1))
    state.apply(.edit(.dragCrop(end, finished: true)))
    #expect(state.edits.draftCrop == nil)
    #expect(state.edits.cleaning.crop == end)
    state.apply(.edit(.undo))
    #expect(state.edits.cleaning.crop == start)
  }

  @Test func anotherDocumentKeepsTheCleaningAndDropsTheRefinement() {
    var state = ShownPosesTests.state()
    state.apply(.edit(.setCleaning(Self.voxel, finished: true)))
    state.apply(.edit(.applyRefinement(Self.lift)))
    state.apply(.documentOpened(path: "/captures/b.csrec"))
    #expect(state.edits.cleaning == Self.voxel)
    #expect(state.edits.appliedRefinement == nil)
    #expect(state.scene.poseCorrections == nil)
    #expect(!state.edits.history.canUndo && !state.edits.history.canRedo)
  }
}
