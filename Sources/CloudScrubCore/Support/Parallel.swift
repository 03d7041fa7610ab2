import Foundation

/// Splitting index ranges across the machine's cores.
public enum Parallel {
  /// The cores this process may use, read once: Foundation reads the control group's CPU
  /// quota from a file on every `activeProcessorCount` (about 20 µs here), too slow to
  /// ask in a loop over frames or batches.
  public static let cores = ProcessInfo.processInfo.activeProcessorCount

  /// Calls `body` once for each of `0..<iterations`, spread over the cores, and returns
  /// when every call has: the one door to GCD's concurrent loop.
  public static func perform(iterations: Int, _ body: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
  }

  /// Calls `body` on consecutive sub-ranges of `0..<count` that together cover it, on
  /// up to one thread a core; small counts run on the calling thread in one call.
  ///
  /// `body` must only write to places that belong to its own range.
  public static func forEachRange(
    _ count: Int, minimumPerTask: Int = 1 << 18, _ body: @Sendable (Range<Int>) -> Void
  ) {
    let tasks = max(1, min(Self.cores, count / max(minimumPerTask, 1)))
    guard tasks > 1 else {
      body(0..<count)
      return
    }
    perform(iterations: tasks) { task in
      body((count * task / tasks)..<(count * (task + 1) / tasks))
    }
  }

  /// `forEachRange` over `0..<count` in up to `slabs` consecutive slabs, one after
  /// another, telling `progress` on the calling thread the fraction done after each;
  /// with no `progress`, in one slab. A slab keeps every core busy (`minimumPerTask` a
  /// core at least), and `body` sees the same indices either way.
  public static func forEachRange(
    _ count: Int, minimumPerTask: Int = 1 << 18, slabs: Int, progress: ProgressHandler?,
    _ body: @Sendable (Range<Int>) -> Void
  ) {
    let slabs = min(slabs, count / max(cores * minimumPerTask, 1))
    guard let progress, slabs > 1 else {
      forEachRange(count, minimumPerTask: minimumPerTask, body)
      progress?(1)
      return
    }
    for slab in 0..<slabs {
      let lower = count * slab / slabs
      let upper = count * (slab + 1) / slabs
      forEachRange(upper - lower, minimumPerTask: minimumPerTask) { range in
        body((range.lowerBound + lower)..<(range.upperBound + lower))
      }
      progress(Double(upper) / Double(count))
    }
  }
}

/// A fixed number of slots that concurrent tasks write, each task only its own slot.
///
/// Unlike an array in a shared box, writing one slot touches no other: no
/// copy-on-write check and no exclusive access to the whole collection.
public final class ParallelSlots<Element>: @unchecked Sendable {
  private let storage: UnsafeMutablePointer<Element>
  public let count: Int

  public init(count: Int, initial: Element) {
    self.count = count
    storage = .allocate(capacity: count)
    storage.initialize(repeating: initial, count: count)
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  public subscript(index: Int) -> Element {
    get { storage[index] }
    set { storage[index] = newValue }
  }

  /// Runs `body` with exclusive access to one slot.
  public func modify<R>(_ index: Int, _ body: (inout Element) throws -> R) rethrows -> R {
    try body(&storage[index])
  }
}

/// Asks the kernel to back `byteCount` bytes at `pointer` with huge pages where it can,
/// before they are first touched: a large fresh array then costs a few hundred page
/// faults instead of tens of thousands. Has no effect where the kernel does not offer
/// transparent huge pages.
public func adviseHugePages(_ pointer: UnsafeMutableRawPointer, byteCount: Int) {
  let hugePage = 2 << 20
  guard byteCount >= 2 * hugePage else { return }
  let start = (Int(bitPattern: pointer) + hugePage - 1) & ~(hugePage - 1)
  let end = (Int(bitPattern: pointer) + byteCount) & ~(hugePage - 1)
  guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
  _ = madvise(aligned, end - start, MADV_HUGEPAGE)
}

/// `adviseHugePages` for an array's reserved room, which starts at its buffer's address
/// even while the array is shorter.
public func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer, capacity byteCount: Int) {
  guard let base = buffer.baseAddress else { return }
  adviseHugePages(base, byteCount: byteCount)
}

extension Array {
  /// Doubles the room when the array is full, the new storage in huge pages
  /// (`adviseHugePages`) before the elements are copied in: for a large array of
  /// records reached in no order (a voxel merge's), where 4 KB pages would make nearly
  /// every access miss the address translation cache too. Call before an append.
  mutating func growInHugePagesWhenFull() {
    guard count == capacity else { return }
    let room = Swift.max(2 * capacity, 1024)
    let old = self
    self = [Element](unsafeUninitializedCapacity: room) { buffer, initialized in
      if let base = buffer.baseAddress {
        adviseHugePages(
          UnsafeMutableRawPointer(base), byteCount: room * MemoryLayout<Element>.stride)
      }
      _ = buffer.initialize(from: old)
      initialized = old.count
    }
  }
}
