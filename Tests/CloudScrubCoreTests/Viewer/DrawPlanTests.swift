import Testing

@testable import CloudScrubCore

/// The point budget's passes: within the budget, every shown point exactly once, and
/// the same points as the timeline's draw range.
@Suite struct DrawPlanTests {
  /// Prefix sums of per-frame point counts.
  static func ranges(_ counts: [Int]) -> [Int] {
    counts.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) }
  }

  /// Frame sizes that vary as a capture's do, from a fixed seed.
  static func unevenCounts(_ frames: Int, seed: UInt64) -> [Int] {
    var state = seed
    return (0..<frames).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % 900 + (state >> 20 & 7 == 0 ? 0 : 100)
    }
  }

  static func allPoints(_ plan: DrawPlan) -> [Int] {
    (0..<plan.passCount).flatMap { plan.ranges(ofPass: $0).flatMap { Array($0) } }
  }

  @Test func handCountedPlan() {
    // Frames of 3, 4, 5, 8, 0 and 6 points: 26 in all, budget 10 → at least 3 passes;
    // every third frame gives passes of 3 + 8 = 11 (too many), so 4: frames {0, 4},
    // {1, 5}, {2}, {3} hold 3, 10, 5 and 8 points.
    let frameRanges = Self.ranges([3, 4, 5, 8, 0, 6])  // [0, 3, 7, 12, 20, 20, 26]
    let plan = DrawPlan(visibleFrames: 0...5, frameRanges: frameRanges, budgetPoints: 10)
    #expect(plan.passCount == 4)
    #expect(plan.ranges(ofPass: 0) == [0..<3])
    #expect(plan.ranges(ofPass: 1) == [3..<7, 20..<26])
    #expect(plan.ranges(ofPass: 2) == [7..<12])
    #expect(plan.ranges(ofPass: 3) == [12..<20])
    #expect(plan.totalPoints == 26)
  }

  @Test func aBudgetThatHoldsEverythingIsOneRange() {
    let frameRanges = Self.ranges([3, 4, 5, 8, 0, 6])
    let plan = DrawPlan(visibleFrames: 1...3, frameRanges: frameRanges, budgetPoints: 1_000)
    #expect(plan.passCount == 1)
    #expect(plan.ranges(ofPass: 0) == [3..<20])
  }

  @Test(arguments: [1, 50, 1_000, 7_777, 100_000])
  func passesStayWithinTheBudgetAndDrawEveryPointOnce(_ budget: Int) {
    let counts = Self.unevenCounts(300, seed: UInt64(budget))
    let frameRanges = Self.ranges(counts)
    let plan = DrawPlan(visibleFrames: 0...299, frameRanges: frameRanges, budgetPoints: budget)
    for pass in 0..<plan.passCount {
      let points = plan.pointCount(ofPass: pass)
      let frames = plan.ranges(ofPass: pass).count
      // Over the budget only as a single frame larger than it.
      #expect(points <= budget || (frames == 1 && counts.max() ?? 0 > budget))
    }
    #expect(Self.allPoints(plan).sorted() == Array(0..<frameRanges[300]))
  }

  @Test(
    arguments: zip(
      [TimelineMode.upToPlayhead, .currentFrameOnly, .lastFrames, .lastFrames, .lastFrames],
      [30, 30, 1, 7, 500]))
  func timelineModesGiveTheDrawRangesPoints(_ mode: TimelineMode, lastFrames: Int) {
    let counts = Self.unevenCounts(40, seed: 9)
    let frameRanges = Self.ranges(counts)
    var playback = Playback()
    playback.apply(.framesLoaded(timestampsSeconds: (0..<40).map { Double($0) / 30 }))
    playback.apply(.setLastFramesCount(lastFrames))
    playback.apply(.setMode(mode))
    for frame in [0, 5, 23, 39] {
      playback.apply(.seek(frame: frame))
      let plan = DrawPlan(
        visibleFrames: playback.visibleFrames, frameRanges: frameRanges, budgetPoints: 700)
      #expect(Self.allPoints(plan).sorted() == Array(playback.drawRange(frameRanges: frameRanges)))
    }
  }

  @Test func framesNotYetLoadedAreLeftOut() {
    // The playhead may run ahead of the store while a recording loads.
    let frameRanges = Self.ranges([5, 5])
    let plan = DrawPlan(visibleFrames: 0...9, frameRanges: frameRanges, budgetPoints: 4)
    #expect(plan.frames == 0...1)
    #expect(Self.allPoints(plan).sorted() == Array(0..<10))
    #expect(
      DrawPlan(visibleFrames: 3...9, frameRanges: frameRanges, budgetPoints: 4).passCount == 0)
    #expect(DrawPlan(visibleFrames: nil, frameRanges: frameRanges, budgetPoints: 4).passCount == 0)
  }

  @Test func passesStartOverWhenTheSceneChangesAndStopWhenComplete() {
    let frameRanges = Self.ranges([3, 4, 5, 8, 0, 6])
    var passes = DrawingPasses<Int>(fixedBudgetPoints: 10)
    let plan = { (budget: Int) in
      DrawPlan(visibleFrames: 0...5, frameRanges: frameRanges, budgetPoints: budget)
    }
    #expect(
      passes.step(for: 1, makePlan: plan) == .draw(pass: [0..<3], continuing: false, points: 3))
    #expect(passes.hasPassesLeft)
    #expect(
      passes.step(for: 1, makePlan: plan)
        == .draw(pass: [3..<7, 20..<26], continuing: true, points: 10))
    // The camera moved: the first pass again, over a cleared picture.
    #expect(
      passes.step(for: 2, makePlan: plan) == .draw(pass: [0..<3], continuing: false, points: 3))
    var drawn = [0..<3]
    while case .draw(let pass, let continuing, _) = passes.step(for: 2, makePlan: plan) {
      #expect(continuing)
      drawn += pass
    }
    #expect(drawn.flatMap { Array($0) }.sorted() == Array(0..<26))
    #expect(!passes.hasPassesLeft)
    #expect(passes.progress == (26, 26))
    #expect(passes.step(for: 2, makePlan: plan) == .idle)
    passes.invalidate()
    #expect(
      passes.step(for: 2, makePlan: plan) == .draw(pass: [0..<3], continuing: false, points: 3))
  }

  @Test func budgetFollowsTheMeasuredSpeed() {
    var budget = PointBudget(frameSeconds: 0.1, minimumPoints: 1_000, pointsPerSecond: 1_000_000)
    #expect(budget.points == 100_000)
    budget.record(points: 500_000, seconds: 1)  // 0.5 M/s measured: halfway there
    #expect(budget.points == 75_000)
    budget.record(points: 100, seconds: 1)  // too small a pass to say anything
    #expect(budget.points == 75_000)
    for _ in 0..<60 { budget.record(points: 20_000, seconds: 1) }
    #expect(budget.points == 2_000)
    for _ in 0..<60 { budget.record(points: 10_000, seconds: 10) }
    #expect(budget.points == 1_000)  // never under the minimum
  }
}
