import Testing

@testable import CloudScrubCore

/// Bucketing per-frame errors into the curve's pixel columns: the largest of each.
@Suite struct TimelineErrorCurveTests {
  @Test func moreFramesThanColumnsKeepEachColumnsLargest() {
    // 10 frames into 4 columns: frames 0-2, 2-4, 5-7, 7-9 (⌊c·10/4⌋ … ⌈(c+1)·10/4⌉-1).
    let errors = FrameAlignmentErrors(residualsMeters: [
      nil, 0.001, 0.004, 0.002, 0.003, nil, nil, 0.009, 0.001, nil,
    ])
    let curve = TimelineErrorCurve(errors, columns: 4)
    #expect(
      (0..<4).map { TimelineErrorCurve.frames(inColumn: $0, columns: 4, frameCount: 10) } == [
        0..<3, 2..<5, 5..<8, 7..<10,
      ])
    #expect(curve.columnsMeters == [0.004, 0.004, 0.009, 0.009])
    #expect(curve.frameCount == 10)
  }

  @Test func oneBadFrameSurvivesAnyWidth() {
    var values = [Float?](repeating: 0.002, count: 3600)
    values[1234] = 0.2
    let errors = FrameAlignmentErrors(residualsMeters: values)
    for columns in [1, 7, 100, 640, 3599, 3600, 5000] {
      let curve = TimelineErrorCurve(errors, columns: columns)
      #expect(curve.columnsMeters.count == columns)
      #expect(curve.columnsMeters.compactMap { $0 }.max() == 0.2)
      // The column the bad frame falls in says so.
      let column = 1234 * columns / 3600
      #expect(curve.columnsMeters[column] == 0.2)
    }
  }

  @Test func fewerFramesThanColumnsSpreadEachFrame() {
    // 3 frames into 6 columns: frame f under columns 2f and 2f + 1.
    let errors = FrameAlignmentErrors(residualsMeters: [0.01, nil, 0.03])
    let curve = TimelineErrorCurve(errors, columns: 6)
    #expect(curve.columnsMeters == [0.01, 0.01, nil, nil, 0.03, 0.03])
    // 3 frames into 4 columns: frame 1 (unmeasured) shares columns 1 and 2.
    let four = TimelineErrorCurve(errors, columns: 4)
    #expect(four.columnsMeters == [0.01, 0.01, 0.03, 0.03])
  }

  @Test func clickPositionsMapToFrames() {
    #expect(TimelineErrorCurve.frame(atFraction: 0, frameCount: 10) == 0)
    #expect(TimelineErrorCurve.frame(atFraction: 0.349, frameCount: 10) == 3)
    #expect(TimelineErrorCurve.frame(atFraction: 1, frameCount: 10) == 9)
    #expect(TimelineErrorCurve.frame(atFraction: -0.5, frameCount: 10) == 0)
    #expect(TimelineErrorCurve.frame(atFraction: .nan, frameCount: 10) == 0)
    #expect(TimelineErrorCurve.frame(atFraction: 0.5, frameCount: 0) == 0)
    #expect(TimelineErrorCurve.fraction(ofFrame: 3, frameCount: 10) == 0.35)
  }

  @Test func emptyErrorsGiveAnEmptyCurve() {
    let curve = TimelineErrorCurve(FrameAlignmentErrors(frameCount: 0), columns: 3)
    #expect(curve.columnsMeters == [nil, nil, nil])
    #expect(FrameAlignmentErrors(frameCount: 5).scaleMeters == 0.01)
    #expect(FrameAlignmentErrors(residualsMeters: [0.004, 0.05]).scaleMeters == 0.05)
  }
}
