import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubSession

/// `VideoEncodingQueue`: frames reach the sink in order on the queue's thread, and an
/// encoding error stops it and abandons the output.
@Suite struct VideoEncodingQueueTests {
  /// Records what it is given; fails at frame `failAt`.
  final class RecordingSink: VideoFrameSink, @unchecked Sendable {
    let failAt: Int?
    private let lock = NSLock()
    private var taken: [UInt8] = []
    private var finished = false
    private var abandoned = false

    init(failAt: Int? = nil) { self.failAt = failAt }

    struct Failure: Error, Equatable {}

    func append(_ image: RGBImage) throws {
      lock.lock()
      defer { lock.unlock() }
      if taken.count == failAt { throw Failure() }
      taken.append(image.pixels[0])
    }
    func finish() throws {
      lock.lock()
      finished = true
      lock.unlock()
    }
    func abandon() {
      lock.lock()
      abandoned = true
      lock.unlock()
    }
    var state: (taken: [UInt8], finished: Bool, abandoned: Bool) {
      lock.lock()
      defer { lock.unlock() }
      return (taken, finished, abandoned)
    }
  }

  static func frame(_ value: UInt8) -> RGBImage {
    RGBImage(width: 1, height: 1, pixels: [value, 0, 0])
  }

  @Test func framesReachTheSinkInOrderAndFinishCompletesIt() throws {
    let sink = RecordingSink()
    let queue = VideoEncodingQueue(sink: sink, depth: 2)
    for value in 0..<50 { try queue.append(Self.frame(UInt8(value))) }
    try queue.finish()
    #expect(sink.state.taken == (0..<50).map { UInt8($0) })
    #expect(sink.state.finished && !sink.state.abandoned)
    #expect(queue.framesEncoded == 50)
  }

  @Test func anEncodingErrorStopsTheQueueAndAbandonsTheOutput() throws {
    let sink = RecordingSink(failAt: 3)
    let queue = VideoEncodingQueue(sink: sink, depth: 2)
    var thrown = 0
    for value in 0..<10 {
      do { try queue.append(Self.frame(UInt8(value))) } catch { thrown += 1 }
    }
    // Whether a later append saw the error first depends on the threads; finish always does.
    #expect(throws: RecordingSink.Failure()) { try queue.finish() }
    #expect(sink.state.taken == [0, 1, 2])
    #expect(sink.state.abandoned && !sink.state.finished)
  }

  @Test func abandoningDropsWhatWaitsAndRemovesTheOutput() throws {
    let sink = RecordingSink()
    let queue = VideoEncodingQueue(sink: sink, depth: 4)
    for value in 0..<3 { try queue.append(Self.frame(UInt8(value))) }
    queue.abandon()
    #expect(sink.state.abandoned && !sink.state.finished)
  }
}
