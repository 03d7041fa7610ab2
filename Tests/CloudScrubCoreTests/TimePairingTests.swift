import Testing

@testable import CloudScrubCore

@Suite struct TimePairingTests {
  @Test func depthAt15HzTakesTheNearestColourAt60Hz() {
    let colour = (0..<60).map { Double($0) / 60 }
    let depth = [0.0, 1.0 / 15, 0.1, 2.0 / 15, 0.99]
    // 1/15 s = 4/60 s; 0.1 s lies between 6/60 and 7/60, nearer 6/60 (0.1 exactly);
    // 0.99 s is nearest 59/60 = 0.9833.
    #expect(
      TimePairing.nearest(to: depth, in: colour, toleranceSeconds: 0.01) == [0, 4, 6, 8, 59])
  }

  @Test func nothingWithinTheToleranceGivesNil() {
    let colour = [0.0, 0.5, 1.0]
    #expect(
      TimePairing.nearest(to: [0.2, 0.51, 2.0], in: colour, toleranceSeconds: 0.05)
        == [nil, 1, nil])
    #expect(TimePairing.nearest(to: [0.3], in: [], toleranceSeconds: 1) == [nil])
  }
}
