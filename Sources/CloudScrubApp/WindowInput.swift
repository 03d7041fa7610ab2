import CloudScrubCore

/// What the window gathers from keys and the pointer for the open document: the
/// commands of this turn, the mapper's drag, a click being told from a drag, and a
/// crop-box face being dragged. Opening another document starts a new one, so nothing
/// gathered for the document before reaches the next.
struct WindowInput {
  /// A crop-box face dragged in the scene: the face, where the drag started, the box
  /// then and the box the drag has made of it so far.
  struct CropDrag {
    var face: CropBoxHandles.Face
    var start: SIMD2<Float>
    var box: CropBox
    var moved: CropBox
  }

  var mapper = InputMapper()
  /// Tells a click that picks a point from a drag that orbits.
  var clicks = ClickDetector()
  var cropDrag: CropDrag?
  /// The commands gathered this turn, applied together.
  var pending: [ViewerCommand] = []

  /// Whether a drag is under way (the loop then draws without waiting).
  var isDragging: Bool { mapper.isDragging || cropDrag != nil }
}
