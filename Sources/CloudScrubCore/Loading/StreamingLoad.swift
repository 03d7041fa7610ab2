import Foundation

/// One frame's new points, handed from the loading thread to whoever shows them.
public struct LoadedFrame: Sendable {
  /// The frame's index in its recording (0 for a single cloud).
  public var frameIndex: Int
  public var timestampSeconds: Double
  /// The capture camera; nil for a cloud that came without one (a PLY file).
  public var info: FrameInfo?
  public var points: FramePoints
  /// Whether these points are a whole frame or a piece of one that arrives in pieces
  /// (a huge PLY cloud: its even sample first, then the rest).
  public var piece: Piece
  /// Whether the points' colours are greys made from their intensity (a cloud with
  /// intensity and no colour, `IntensityGreys`).
  public var colorsFromIntensity = false

  /// How a delivery relates to the frames before it.
  public enum Piece: Sendable {
    /// A whole frame.
    case whole
    /// The first piece of a frame; more of it may follow.
    case first
    /// More points of the last frame delivered (whose first piece was `.first`).
    case more
  }

  public init(
    frameIndex: Int, timestampSeconds: Double, info: FrameInfo?, points: FramePoints,
    piece: Piece = .whole
  ) {
    self.frameIndex = frameIndex
    self.timestampSeconds = timestampSeconds
    self.info = info
    self.points = points
    self.piece = piece
  }
}

/// Where a streaming load stands.
public enum LoadStatus: Equatable, Sendable {
  case loading(framesDone: Int, framesTotal: Int)
  case finished(frames: Int)
  /// The load stopped at an error; the frames before it were delivered.
  case failed(String)
  case cancelled
}

/// Loads a recording on background threads and hands its frames over in timeline
/// order through an inbox that the window's frame loop empties, so the first frame is
/// on screen at once and the loop never waits for decoding. A recording's inbox is
/// bounded (`inboxLimitPoints`): frames decoded faster than they are taken wait, so what
/// is held does not grow with the capture's length.
///
/// The loading runs as a `BackgroundWork` job; `cancel()` ends its generation.
public final class StreamingLoad: @unchecked Sendable {
  private let lock = NSCondition()
  private var inbox: [LoadedFrame] = []
  /// The points the inbox holds.
  private var inboxPoints = 0
  private var currentStatus: LoadStatus
  private var cancelled = false
  private var loadNotes: [String] = []
  /// The loading job; it delivers through the inbox, so it has no result of its own.
  /// Idle from the start for a load that was done at once.
  private let job = BackgroundWork<Never>()
  /// The ingest-time merge the load runs, nil when it keeps every point.
  public let ingestMergeMeters: Float?

  /// A load of `total` units that `start(_:)` sets going (a huge PLY cloud).
  init(total: Int, ingestMergeMeters: Float?) {
    currentStatus = .loading(framesDone: 0, framesTotal: total)
    inboxLimitPoints = Self.defaultInboxLimitPoints
    self.ingestMergeMeters = ingestMergeMeters
  }

  /// Runs `body` as the loading job, which delivers through `deliver(_:done:total:)`
  /// and ends with `finish(_:)`.
  func start(_ body: @escaping @Sendable (StreamingLoad) -> Void) {
    let started = job.start { [self] in
      body(self)
      return nil
    }
    assert(started, "a load starts once")
  }

  /// The points a recording's inbox holds by default before the load waits for them
  /// to be taken: 4 Mi points, 64 MB.
  public static let defaultInboxLimitPoints = 4 << 20
  /// The points the inbox of a recording's load holds before the load waits: a frame
  /// goes in when it fits, or alone into an empty inbox.
  public let inboxLimitPoints: Int

  /// Starts loading `loader`'s frames in the background.
  ///
  /// - Parameters:
  ///   - memory: its merge is applied to the loader, and the load stops with a
  ///     `.failed` status naming what would fit once more points than its limit came.
  ///   - inboxLimitPoints: the points frames not yet taken may hold.
  public init(
    recording loader: RecordingLoader, memory: ViewerMemoryPlan? = nil,
    inboxLimitPoints: Int = StreamingLoad.defaultInboxLimitPoints
  ) {
    self.inboxLimitPoints = max(1, inboxLimitPoints)
    let total = loader.selection.indices(frameCount: loader.source.frameCount).count
    currentStatus = .loading(framesDone: 0, framesTotal: total)
    var merging = loader
    if let merge = memory?.mergeMeters { merging.ingestMergeMeters = merge }
    ingestMergeMeters = merging.ingestMergeMeters
    let running = merging
    start { load in load.run(running, memory: memory) }
  }

  /// A load that is already done: one frame holding a whole cloud, or, for a cloud
  /// whose points carry a `frame` attribute, its frames (`CloudTimeline`).
  public init(cloud: PointCloud) {
    inboxLimitPoints = Self.defaultInboxLimitPoints
    inbox = CloudTimeline.frames(of: cloud)
    inboxPoints = inbox.reduce(0) { $0 + $1.points.count }
    ingestMergeMeters = nil
    currentStatus = .finished(frames: inbox.count)
  }

  /// Waits until the loading job has ended: every frame delivered, or the load
  /// failed, or it stopped after a `cancel()` (after which it delivers nothing).
  ///
  /// - Returns: false when `timeout` seconds passed first.
  public func waitUntilStopped(timeout: TimeInterval) -> Bool {
    job.waitUntilIdle(seconds: timeout)
  }

  /// Waits until frames wait in the inbox or the load has ended (finished, failed or
  /// cancelled), for a consumer with nothing else to do than take them.
  ///
  /// - Returns: false when `timeout` seconds passed first.
  public func waitForFrames(timeout: TimeInterval) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    lock.lock()
    defer { lock.unlock() }
    while inbox.isEmpty, case .loading = currentStatus {
      if !lock.wait(until: deadline) { break }
    }
    if !inbox.isEmpty { return true }
    if case .loading = currentStatus { return false }
    return true
  }

  /// Takes every frame until the load has stopped, for a consumer that wants them
  /// all (tests, and callers with nothing else to do): a recording's load waits while
  /// its inbox is full, so waiting for it to stop without taking would not end.
  ///
  /// - Returns: the frames, oldest first; nil when `timeout` seconds passed first.
  public func takeUntilStopped(timeout: TimeInterval) -> [LoadedFrame]? {
    let deadline = Date().addingTimeInterval(timeout)
    var frames: [LoadedFrame] = []
    while true {
      let left = deadline.timeIntervalSinceNow
      guard left > 0, waitForFrames(timeout: left) else { return nil }
      frames += take()
      guard case .loading = status else {
        frames += take()
        return job.waitUntilIdle(seconds: max(0, deadline.timeIntervalSinceNow)) ? frames : nil
      }
    }
  }

  public var status: LoadStatus {
    lock.lock()
    defer { lock.unlock() }
    return currentStatus
  }

  /// The points of the frames delivered and not yet taken.
  public var pendingPoints: Int {
    lock.lock()
    defer { lock.unlock() }
    return inboxPoints
  }

  /// Whether frames are still to come: the load is running, or has delivered frames
  /// nobody has taken yet.
  public var hasFramesToCome: Bool {
    lock.lock()
    defer { lock.unlock() }
    if case .loading = currentStatus { return true }
    return !inbox.isEmpty
  }

  /// Removes and returns the frames delivered so far, oldest first (at most
  /// `maxFrames`, so one frame-loop turn does bounded work).
  public func take(maxFrames: Int = .max) -> [LoadedFrame] {
    lock.lock()
    defer { lock.unlock() }
    let count = min(maxFrames, inbox.count)
    let taken = Array(inbox.prefix(count))
    inbox.removeFirst(count)
    inboxPoints -= taken.reduce(0) { $0 + $1.points.count }
    lock.broadcast()
    return taken
  }

  /// Waits, on the loading thread, while the frames delivered and not yet taken hold
  /// `maxPoints` points or more, so that a reader faster than its consumer holds a
  /// bounded queue; returns false (at once) once the load is cancelled.
  func waitForRoom(maxPoints: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    while !cancelled, inboxPoints >= maxPoints { lock.wait() }
    return !cancelled
  }

  /// Stops the load after the frame in hand, and ends its job's generation.
  public func cancel() {
    job.invalidate()
    lock.lock()
    cancelled = true
    lock.broadcast()
    if case .loading = currentStatus { currentStatus = .cancelled }
    lock.unlock()
  }

  private func run(_ loader: RecordingLoader, memory: ViewerMemoryPlan?) {
    var delivered = 0
    var points = 0
    var overLimit: String?
    do {
      try loader.stream { position, total, frameIndex, frame in
        points += frame.count
        if let memory, points > memory.pointLimit {
          overLimit = memory.limitMessage(frame: frameIndex)
          return false
        }
        let info = try loader.source.frameInfo(at: frameIndex)
        let points = frame
        lock.lock()
        defer { lock.unlock() }
        while !cancelled, inboxPoints > 0, inboxPoints + points.count > inboxLimitPoints {
          lock.wait()
        }
        guard !cancelled else { return false }
        inboxPoints += points.count
        inbox.append(
          LoadedFrame(
            frameIndex: frameIndex, timestampSeconds: info.timestampSeconds, info: info,
            points: points))
        delivered = position + 1
        currentStatus = .loading(framesDone: delivered, framesTotal: total)
        lock.broadcast()
        return true
      }
      finish(overLimit.map { .failed($0) } ?? .finished(frames: delivered))
    } catch {
      finish(.failed("\(error)"))
    }
  }

  /// Hands `frame` to the inbox and records progress (`done` of `total` units);
  /// returns false, delivering nothing, once the load was cancelled.
  func deliver(_ frame: LoadedFrame?, done: Int, total: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !cancelled else { return false }
    if let frame {
      inbox.append(frame)
      inboxPoints += frame.points.count
      lock.broadcast()
    }
    currentStatus = .loading(framesDone: done, framesTotal: total)
    return true
  }

  /// What the load decided while it ran that the window should say (a huge PLY's merge
  /// size, chosen from its first sample, or made coarser on the way), oldest first.
  public var notes: [String] {
    lock.lock()
    defer { lock.unlock() }
    return loadNotes
  }

  func addNote(_ note: String) {
    lock.lock()
    loadNotes.append(note)
    lock.unlock()
  }

  /// Whether `cancel()` was called.
  var isCancelled: Bool {
    lock.lock()
    defer { lock.unlock() }
    return cancelled
  }

  /// Records how the load ended (unless it was cancelled); the job ends after it.
  func finish(_ status: LoadStatus) {
    lock.lock()
    if !cancelled { currentStatus = status }
    lock.broadcast()
    lock.unlock()
  }

  /// A cloud's confidence attribute when it has one in 0…255, else "unknown".
  static func confidence(of cloud: PointCloud) -> [UInt8] {
    if let attribute = cloud.attribute(named: "confidence"),
      case .uint8(let values) = attribute.values,
      values.count == cloud.count
    {
      return values
    }
    return Array(repeating: FramePoints.unknownConfidence, count: cloud.count)
  }
}
