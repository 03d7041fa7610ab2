import Foundation
import Testing

@testable import CloudScrubCore

/// A point-cloud file read in the background: the load is under way (with the
/// fraction read as its progress) while the reader works, and delivers the cloud's
/// frames once it is read; a reader's error fails the load with its words.
@Suite struct StreamingLoadReadingTests {
  @Test func theLoadRunsWhileTheFileIsReadAndDeliversTheCloudAfter() throws {
    let halfway = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)
    var cloud = PointCloud()
    cloud.positions = [Point3(1, 2, 3), Point3(4, 5, 6)]
    let read = cloud
    let load = StreamingLoad(reading: { progress in
      progress(0.42)
      halfway.signal()
      // The reader holds here until the test has looked at the load.
      _ = resume.wait(timeout: .now() + 60)
      progress(1)
      return read
    })
    #expect(halfway.wait(timeout: .now() + 60) == .success)
    #expect(load.status == .loading(framesDone: 42, framesTotal: StreamingLoad.readingSteps))
    #expect(load.hasFramesToCome)
    #expect(load.take().isEmpty)
    // Nothing can arrive while the reader is held: the wait runs out and says so.
    #expect(!load.waitForFrames(timeout: 0.05))
    resume.signal()
    // The delivery itself wakes the wait.
    #expect(load.waitForFrames(timeout: 60))
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .finished(frames: 1))
    let frames = load.take()
    #expect(frames.map(\.points.positions) == [[Point3(1, 2, 3), Point3(4, 5, 6)]])
    #expect(frames.first?.info == nil)
  }

  @Test func aReadersErrorFailsTheLoadWithItsWords() {
    struct Unreadable: Error, CustomStringConvertible {
      var description: String { "the header names 7 fields but gives 6 sizes: x.pcd" }
    }
    let load = StreamingLoad(reading: { _ in throw Unreadable() })
    #expect(load.waitUntilStopped(timeout: 60))
    #expect(load.status == .failed("the header names 7 fields but gives 6 sizes: x.pcd"))
    #expect(load.take().isEmpty)
  }
}
