import Testing

@testable import CloudScrubCore

/// A leading run of frames at exactly the origin, before tracking started.
@Suite struct TrackingStartTests {
  let moved = SIMD3<Double>(0.01, 0, 0)

  @Test func leadingRunOfZeroTranslationsIsCounted() {
    #expect(TrackingStart.untrackedFrameCount(translations: [.zero, .zero, .zero, moved]) == 3)
    // -0.0 is exactly zero too; a tiny translation is not.
    let negativeZero = SIMD3<Double>(-0.0, 0, -0.0)
    let tiny = SIMD3<Double>(1.8626451e-9, 0, 0)
    #expect(TrackingStart.untrackedFrameCount(translations: [.zero, negativeZero, tiny]) == 2)
  }

  @Test func oneFrameAtTheOriginOrAllAtTheOriginIsNoRun() {
    #expect(TrackingStart.untrackedFrameCount(translations: [.zero, moved, moved]) == 0)
    #expect(TrackingStart.untrackedFrameCount(translations: [.zero, .zero, .zero]) == 0)
    #expect(TrackingStart.untrackedFrameCount(translations: [moved, .zero, .zero, moved]) == 0)
    #expect(TrackingStart.untrackedFrameCount(translations: []) == 0)
  }
}
