import Testing

@testable import CloudScrubCore

/// Gathering a refinement's loops into the timeline's bundles.
@Suite struct LoopBundleTests {
  /// Two returns: frames 10–14 seen again at 100–108, and frames 50–52 at 300–301.
  /// Each return's loops form one bundle whatever order they come in.
  @Test func eachReturnIsOneBundle() {
    let loops = [
      FramePair(50, 300), FramePair(12, 104), FramePair(10, 100), FramePair(14, 108),
      FramePair(52, 301), FramePair(10, 108),
    ]
    let bundles = LoopBundle.bundles(loops, span: 10)
    #expect(
      bundles == [
        LoopBundle(first: 10...14, second: 100...108, count: 4),
        LoopBundle(first: 50...52, second: 300...301, count: 2),
      ])
  }

  /// Every fourth frame of 0–60 tied to the frame 100 after it: a band no wider than
  /// the span on either end, so it is tiled, each frame in exactly one bundle.
  @Test func aLongBandIsTiledWithinTheSpan() {
    let loops = stride(from: 0, through: 60, by: 4).map { FramePair($0, $0 + 100) }
    let bundles = LoopBundle.bundles(loops, span: 20)
    #expect(bundles.map(\.first) == [0...20, 24...44, 48...60])
    #expect(bundles.map(\.second) == [100...120, 124...144, 148...160])
    #expect(bundles.map(\.count) == [6, 6, 4])
    #expect(bundles.map(\.count).reduce(0, +) == loops.count)
  }

  /// Ends near on one side but far on the other are two bundles; a span of 0 keeps
  /// only identical loops together.
  @Test func nearOnOneEndOnlyIsAnotherBundle() {
    let loops = [FramePair(10, 100), FramePair(11, 400), FramePair(10, 100)]
    #expect(
      LoopBundle.bundles(loops, span: 5) == [
        LoopBundle(first: 10...10, second: 100...100, count: 2),
        LoopBundle(first: 11...11, second: 400...400, count: 1),
      ])
    #expect(LoopBundle.bundles(loops, span: 0).map(\.count) == [2, 1])
    #expect(LoopBundle.bundles([], span: 5).isEmpty)
  }

  /// A refinement of 100 recording frames with frames 0…49 loaded: its loops are the
  /// kept ones with both ends loaded, as timeline positions, and its bundles are made
  /// from them once, each stretch within a 25th of the 50 loaded frames (2).
  @Test func aRefinementCarriesItsLoopsBundles() {
    let pose = CameraPose(worldFromCamera: .identity, axes: .openCV)
    let result = DriftAlignment.Result(
      errors: FrameAlignmentErrors(frameCount: 100),
      poses: Array(repeating: pose, count: 100), originalPoses: Array(repeating: pose, count: 100),
      timestampsSeconds: (0..<100).map { Double($0) / 60 },
      loops: [
        LoopEdge(first: 2, second: 40, gapMeters: 0.01, weight: 0.9),
        LoopEdge(first: 4, second: 41, gapMeters: 0.01, weight: 0.7),
        LoopEdge(first: 3, second: 30, gapMeters: 0.01, weight: 0.2),
        LoopEdge(first: 10, second: 45, gapMeters: 0.01, weight: 1),
        LoopEdge(first: 20, second: 80, gapMeters: 0.01, weight: 1),
      ])
    let refinement = PoseRefinement(result, frames: Array(0..<50))
    #expect(refinement.loops == [FramePair(2, 40), FramePair(4, 41), FramePair(10, 45)])
    #expect(
      refinement.loopBundles == [
        LoopBundle(first: 2...4, second: 40...41, count: 2),
        LoopBundle(first: 10...10, second: 45...45, count: 1),
      ])
  }
}
