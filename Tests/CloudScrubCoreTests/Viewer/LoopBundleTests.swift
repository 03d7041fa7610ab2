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
}
