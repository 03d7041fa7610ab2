import Foundation

/// Grows a `PointOctree` on a worker of its own (a `BackgroundWork` job that lasts as
/// long as the builder is open), so that how fast the level of
/// detail fills in does not depend on how often a frame loop turns.
///
/// The frame loop hands it each loaded frame (or piece of one) as it takes it from the
/// load (`submit`), in store order; the worker inserts them in steps of at most
/// `stepPoints` points, in that order: a new frame larger than a step goes in as an
/// even sample first (every t-th point, then the next residue, as
/// `PointOctree.sync(with:maxPoints:)` does), the rest of a frame in contiguous
/// slices. So the tree ends up holding every submitted point exactly once, and its
/// first step already covers a large frame.
///
/// The frame loop reads the tree between steps (`withTree`): the call waits for the
/// step under way (a step of 128 k points takes tens of milliseconds), and the worker
/// starts no step while a reader holds the tree, so a reader never waits for more than
/// one step and the tree's arrays are never copied. `close()` (or the owner going
/// away) stops the worker before its next step and drops what was not inserted.
public final class LevelOfDetailBuilder: @unchecked Sendable {
  /// Points a step inserts at most.
  public static let defaultStepPoints = 1 << 17

  /// A submitted piece: its points, whether it continues the last frame, and how far
  /// it is in (strided: the next residue of `stride`; contiguous: the next offset).
  private struct Job {
    var points: FramePoints
    var continuing: Bool
    var stride: Int
    var next: Int
  }

  public let stepPoints: Int
  /// The worker; the tree is its result only through `withTree`, so it has none.
  private let worker = BackgroundWork<Never>()
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var tree: PointOctree
  private var jobs: [Job] = []
  private var head = 0
  private var queuedPoints = 0
  private var readers = 0
  private var inserting = false
  private var closed = false
  private var running = true
  private var steps = 0
  private var hookedStep = -1
  private var insertedPoints = 0
  private var insertedFrames = 0
  /// Called on the worker before each step (0, 1, 2, …), so that a test can hold the
  /// worker at a known place. Set it before the first `submit`.
  private let beforeStep: (@Sendable (Int) -> Void)?

  /// A builder of a tree of `options`, inserting at most `stepPoints` points a step.
  public init(
    options: PointOctree.Options = PointOctree.Options(), stepPoints: Int = defaultStepPoints,
    beforeStep: (@Sendable (Int) -> Void)? = nil
  ) {
    tree = PointOctree(options: options)
    self.stepPoints = max(1, stepPoints)
    self.beforeStep = beforeStep
    worker.start { [self] in
      work()
      return nil
    }
  }

  // MARK: - The frame loop's side

  /// Queues `points` as the next frame, or (`continuingFrame`) as more of the last one.
  public func submit(_ points: FramePoints, continuingFrame: Bool) {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return }
    let stride =
      !continuingFrame && points.count > stepPoints
      ? (points.count + stepPoints - 1) / stepPoints : 0
    jobs.append(Job(points: points, continuing: continuingFrame, stride: stride, next: 0))
    queuedPoints += points.count
    condition.broadcast()
  }

  /// Runs `body` with the tree as it stands between two steps; the worker waits
  /// meanwhile. `body` must not keep the tree (a copy kept would make the worker copy
  /// the arrays it grows).
  public func withTree<R>(_ body: (PointOctree) throws -> R) rethrows -> R {
    condition.lock()
    readers += 1
    while inserting { condition.wait() }
    condition.unlock()
    defer {
      condition.lock()
      readers -= 1
      condition.broadcast()
      condition.unlock()
    }
    return try read(body)
  }

  /// The tree's copy lives only inside this call, so it is gone before the worker is
  /// let go again.
  private func read<R>(_ body: (PointOctree) throws -> R) rethrows -> R {
    condition.lock()
    let snapshot = tree
    condition.unlock()
    return try body(snapshot)
  }

  /// Points in the tree.
  public var count: Int { locked { insertedPoints } }
  /// Frames in the tree (the next frame's position).
  public var frameCount: Int { locked { insertedFrames } }
  /// Points submitted and not yet inserted.
  public var pendingPoints: Int { locked { queuedPoints } }

  /// Points queued past which the frame loop submits nothing more (`hasRoom`), leaving
  /// the pieces in the load's inbox, whose reader then waits too: the queue is bounded.
  public static let maxQueuedPoints = 1 << 22

  /// Whether fewer than `maxQueuedPoints` points wait to be inserted.
  public var hasRoom: Bool { pendingPoints < Self.maxQueuedPoints }

  /// Stops the worker before its next step and ends its generation; what was not
  /// inserted is dropped. The tree stays readable.
  public func close() {
    worker.invalidate()
    condition.lock()
    closed = true
    jobs = []
    head = 0
    queuedPoints = 0
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until every submitted point is in (true), or the worker has stopped, or
  /// `timeout` passed (false).
  public func waitUntilIdle(timeout: TimeInterval) -> Bool {
    waitFor(timeout: timeout) { $0.head == $0.jobs.count && !$0.inserting || !$0.running }
      && locked { head == jobs.count }
  }

  /// Waits until the worker has ended after `close()`; false past `timeout`.
  public func waitUntilStopped(timeout: TimeInterval) -> Bool {
    worker.waitUntilIdle(seconds: timeout)
  }

  private func waitFor(timeout: TimeInterval, _ done: (LevelOfDetailBuilder) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while !done(self) {
      if !condition.wait(until: deadline) { return done(self) }
    }
    return true
  }

  private func locked<R>(_ body: () -> R) -> R {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  // MARK: - The worker

  private func work() {
    condition.lock()
    while true {
      while !closed && (head == jobs.count || readers > 0) { condition.wait() }
      if closed { break }
      if let beforeStep, hookedStep != steps {
        hookedStep = steps
        let step = steps
        condition.unlock()
        beforeStep(step)
        condition.lock()
        continue
      }
      var job = jobs[head]
      var grown = tree
      tree = PointOctree(options: grown.options)  // the worker's copy is the only one
      inserting = true
      condition.unlock()

      let inserted = Self.insertStep(of: &job, into: &grown, stepPoints: stepPoints)

      StartupTrace.mark("level of detail: step \(steps) inserted \(inserted)")
      condition.lock()
      tree = grown
      inserting = false
      steps += 1
      insertedPoints = grown.count
      insertedFrames = grown.frameCount
      if !closed {
        queuedPoints -= inserted
        let done = job.stride > 0 ? job.next >= job.stride : job.next >= job.points.count
        if done {
          jobs[head] = Job(points: FramePoints(), continuing: true, stride: 0, next: 0)
          head += 1
          if head == jobs.count || head >= 64 {
            jobs.removeFirst(head)
            head = 0
          }
        } else {
          jobs[head] = job
        }
      }
      condition.broadcast()
    }
    running = false
    condition.broadcast()
    condition.unlock()
  }

  /// Inserts the next step of `job`; returns the points inserted.
  private static func insertStep(of job: inout Job, into tree: inout PointOctree, stepPoints: Int)
    -> Int
  {
    let points = job.points
    if job.stride > 0 {
      // A share of a new frame larger than a step: every stride-th point from `next`.
      let share = points.gathering(stride(from: job.next, to: points.count, by: job.stride))
      insert(share, 0..<share.count, into: &tree, continuing: job.continuing || job.next > 0)
      job.next += 1
      return share.count
    }
    let range = job.next..<min(points.count, job.next + stepPoints)
    insert(points, range, into: &tree, continuing: job.continuing || job.next > 0)
    job.next = max(range.upperBound, 1)
    return range.count
  }

  private static func insert(
    _ points: FramePoints, _ range: Range<Int>, into tree: inout PointOctree, continuing: Bool
  ) {
    points.withColumns {
      tree.insert($0[range], continuingFrame: continuing && tree.frameCount > 0)
    }
  }
}
