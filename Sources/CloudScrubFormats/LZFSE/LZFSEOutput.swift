import Foundation

/// The decoded bytes, written through a raw pointer with `slack` spare bytes past
/// the current block so that the hot loops can copy in whole 8- and 16-byte words
/// and overshoot harmlessly.
struct LZFSEOutput {
  static let slack = 64

  private(set) var base: UnsafeMutablePointer<UInt8>
  private(set) var capacity: Int
  /// Bytes decoded so far.
  var count = 0
  /// Whether this buffer was allocated here (and so may be reallocated larger).
  private let owned: Bool
  /// The most `reserve` may ever grow to: the stream's declared size plus slack.
  private let limit: Int

  /// Writes into memory the caller owns, sized for the whole stream plus slack.
  init(borrowing base: UnsafeMutablePointer<UInt8>, capacity: Int) {
    self.base = base
    self.capacity = capacity
    self.owned = false
    self.limit = capacity
  }

  /// Allocates `initialCapacity` bytes and grows on demand, doubling, up to
  /// `declaredSize` plus slack: used when the declared size is too large to trust
  /// up front.
  init(initialCapacity: Int, declaredSize: Int) {
    let capacity = min(initialCapacity, declaredSize) + Self.slack
    self.base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    self.capacity = capacity
    self.owned = true
    self.limit = declaredSize + Self.slack
  }

  /// Makes sure `size` more bytes, plus the slack, fit after `count`.
  mutating func reserve(_ size: Int, blockOffset: Int) throws {
    let needed = count + size + Self.slack
    if needed <= capacity { return }
    guard owned, needed <= limit else {
      throw LZFSEError(
        .blockSizeMismatch(declared: capacity - Self.slack, actual: needed), at: blockOffset)
    }
    let newCapacity = min(max(needed, capacity * 2), limit)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// Releases memory allocated here; borrowed memory is left alone.
  func release() {
    if owned { base.deallocate() }
  }
}
