import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubRender

/// Headless contexts made, drawn with and dropped on several threads at once, as the
/// render tests of different suites do side by side and as a render beside the
/// window's export would. Dropping one context must not take the display from the
/// others: each thread's pictures stay equal to the one drawn alone first.
@Suite struct HeadlessContextThreadsTests {
  static let width = 64
  static let height = 48
  static let store = ComparisonScenes.store(pointsPerFrame: 500, frames: 3, seed: 5)

  static func picture() throws -> RGBImage {
    let comparison = try RendererComparison(width: width, height: height)
    let state = ComparisonScenes.state(store, width: width, height: height)
    return try comparison.picture(state, store: store, with: .gl)
  }

  @Test func contextsOnManyThreadsDrawTheSamePictureWhileOthersAreDropped() throws {
    let alone = try Self.picture()
    #expect(RendererComparison.coveredFraction(alone) > 0.05)
    let threads = 4
    let rounds = 16
    let results = ThreadResults(count: threads)
    let group = DispatchGroup()
    for thread in 0..<threads {
      group.enter()
      let worker = Thread {
        defer { group.leave() }
        for _ in 0..<rounds {
          do {
            // The picture's context is dropped at the end of each round, while the
            // other threads are still drawing with theirs.
            let picture = try Self.picture()
            results.record(thread, same: picture == alone)
          } catch {
            results.record(thread, error: "\(error)")
          }
        }
      }
      worker.start()
    }
    #expect(group.wait(timeout: .now() + 300) == .success, "the threads did not finish")
    for thread in 0..<threads {
      let result = results.result(thread)
      #expect(result.errors.isEmpty, "thread \(thread): \(result.errors)")
      #expect(result.same == rounds, "thread \(thread): \(result.same) of \(rounds) the same")
    }
  }
}

/// What each thread saw, behind a lock.
private final class ThreadResults: @unchecked Sendable {
  private let lock = NSLock()
  private var same: [Int]
  private var errors: [[String]]

  init(count: Int) {
    same = Array(repeating: 0, count: count)
    errors = Array(repeating: [], count: count)
  }

  func record(_ thread: Int, same isSame: Bool) {
    lock.withLock { same[thread] += isSame ? 1 : 0 }
  }

  func record(_ thread: Int, error: String) {
    lock.withLock { errors[thread].append(error) }
  }

  func result(_ thread: Int) -> (same: Int, errors: [String]) {
    lock.withLock { (same[thread], errors[thread]) }
  }
}
