import Foundation
import Testing

@testable import CloudScrubCore

/// The alignment error measured in segments of the timeline at once, against one
/// `FrameAligner` measuring every frame in order: the same figure for every frame.
@Suite struct SegmentedErrorPassTests {
  /// Frames that cannot be read: the others are the synthetic capture's.
  struct FailingFrames: RecordingSource {
    let base: SyntheticRecordingSource
    let failing: Set<Int>
    struct Failure: Error {}
    var description: RecordingDescription { base.description }
    var frameCount: Int { base.frameCount }
    func frame(at index: Int) throws -> CapturedFrame {
      if failing.contains(index) { throw Failure() }
      return try base.frame(at: index)
    }
  }

  /// 90 frames of a drifting capture (30 a second): the two-second error window spans
  /// several 16-frame segments, so every segment but the first starts from frames read
  /// only to warm its model.
  static let source = SyntheticRecordingSource(
    options: DriftAlignmentTests.options(
      frames: 90,
      drift: SyntheticDrift(translationMeters: 0.05, rotationRadians: 2 * Double.pi / 180)))

  static func pass(
    _ source: any RecordingSource, kept: [Int: AlignmentFrame] = [:], untracked: Int = 0
  ) throws -> SegmentedErrorPass {
    // The times of the synthetic capture (a failing frame's info cannot be read either).
    let times = try (0..<source.frameCount).map {
      try Self.source.frameInfo(at: $0).timestampSeconds
    }
    var pass = SegmentedErrorPass(
      source: source, options: AlignmentOptions(), timestamps: times, untracked: untracked,
      kept: kept, isCancelled: nil)
    pass.segmentFrames = 16
    return pass
  }

  @Test func segmentsMeasureWhatOnePassInOrderMeasures() throws {
    let frames = try DriftAlignment.prepare(Self.source, 0..<90, options: AlignmentOptions())
    var aligner = FrameAligner(refines: false)
    let inOrder = frames.map { aligner.add($0).residualMeters }
    #expect(inOrder.compactMap { $0 }.count >= 85, "too few frames measured: \(inOrder)")
    // Every other frame comes from the kept ones, the rest are read.
    let kept = Dictionary(uniqueKeysWithValues: frames.enumerated().filter { $0.0 % 2 == 0 })
    let poses = frames.map(\.worldFromCamera)
    var fractions: [Double] = []
    let segmented = try Self.pass(Self.source, kept: kept).run(under: poses) {
      fractions.append($0)
    }
    #expect(segmented.count == 90)
    for (index, (a, b)) in zip(inOrder, segmented).enumerated() {
      #expect(
        (a == nil) == (b == nil),
        "frame \(index): \(String(describing: a)) in order, \(String(describing: b)) in segments")
      if let a, let b {
        #expect(
          abs(a - b) <= 1e-6 + 1e-4 * a, "frame \(index): \(a) m in order, \(b) m in segments")
      }
    }
    #expect(fractions.last == 1 && fractions == fractions.sorted(), "progress \(fractions)")
  }

  /// Frames before tracking started get no error and are not in any model.
  @Test func untrackedFramesGetNoErrorAndWarmNothing() throws {
    let frames = try DriftAlignment.prepare(Self.source, 0..<90, options: AlignmentOptions())
    var aligner = FrameAligner(refines: false)
    let inOrder = frames[10...].map { aligner.add($0).residualMeters }
    let segmented = try Self.pass(Self.source, untracked: 10).run(
      under: frames.map(\.worldFromCamera)
    ) { _ in }
    #expect(segmented[..<10].allSatisfy { $0 == nil })
    for (a, b) in zip(inOrder, segmented[10...]) {
      #expect((a == nil) == (b == nil))
      if let a, let b { #expect(abs(a - b) <= 1e-6 + 1e-4 * a) }
    }
  }

  /// Frames 20 and 70 cannot be read: the error names frame 20, the earlier, whichever
  /// segment fails first.
  @Test func theEarliestFrameThatCannotBeReadIsTheError() throws {
    let failing = FailingFrames(base: Self.source, failing: [20, 70])
    let poses = try (0..<90).map { try Self.source.frameInfo(at: $0).pose.worldFromOpenCVCamera }
    for _ in 0..<5 {
      do {
        _ = try Self.pass(failing).run(under: poses) { _ in }
        Issue.record("no error for unreadable frames")
      } catch let error as FrameLoadError {
        #expect(error.frameIndex == 20)
        #expect(error.underlying is FailingFrames.Failure)
      }
    }
  }

  @Test func aCancelledPassStops() throws {
    let poses = try (0..<90).map { try Self.source.frameInfo(at: $0).pose.worldFromOpenCVCamera }
    var pass = try Self.pass(Self.source)
    pass = SegmentedErrorPass(
      source: pass.source, options: pass.options, timestamps: pass.timestamps, untracked: 0,
      kept: [:], isCancelled: { true })
    #expect(throws: CancellationError.self) { try pass.run(under: poses) { _ in } }
  }
}
