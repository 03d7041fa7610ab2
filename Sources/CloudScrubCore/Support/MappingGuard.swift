import Foundation

/// Turns the SIGBUS that a read of a memory-mapped file raises, when another process
/// truncates the file while it is mapped, into a flag that the reader checks.
///
/// Each `MappedFile` registers its mapping in a fixed table allocated once. The SIGBUS
/// handler looks the faulting address up there; inside a registered mapping, it maps
/// zero-filled pages over the rest of that mapping (from the faulting page on), marks
/// the slot truncated and returns, so the read goes on over zeros instead of killing
/// the process, and the reader's `MappedFile.checkIntact()` then throws. A fault
/// anywhere else puts the previous handler back, so the fault repeats and ends the
/// process as it would have. The handler only reads the table and calls `mmap`, a system call.
enum MappingGuard {
  /// A registered mapping: `[start, end)` and its state (0 free, 1 in use, 2 truncated).
  struct Slot {
    var start: UInt
    var end: UInt
    var state: Int
  }

  static let capacity = 1024
  nonisolated(unsafe) static let slots: UnsafeMutablePointer<Slot> = {
    let table = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    table.initialize(repeating: Slot(start: 0, end: 0, state: 0), count: capacity)
    return table
  }()
  /// The handler that was there before (the Swift runtime's backtracer, say), put back
  /// for a fault this guard does not own.
  nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
    let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
    saved.initialize(to: sigaction())
    return saved
  }()
  private static let lock = NSLock()
  private static let installed: Bool = {
    _ = slots
    _ = previous
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = { _, info, _ in
      MappingGuard.handleFault(at: UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr))
    }
    action.sa_flags = SA_SIGINFO
    sigemptyset(&action.sa_mask)
    return sigaction(SIGBUS, &action, previous) == 0
  }()

  /// Registers `length` mapped bytes at `address`; returns the slot, or nil when the
  /// table is full (the mapping then goes unguarded, as every mapping did before).
  static func register(_ address: UnsafeMutableRawPointer, length: Int) -> Int? {
    guard installed else { return nil }
    lock.lock()
    defer { lock.unlock() }
    for index in 0..<capacity where slots[index].state == 0 {
      let start = UInt(bitPattern: address)
      slots[index].start = start
      slots[index].end = start + UInt(length)
      // Marked in use only once its bounds are written, so the handler never sees a
      // half-written slot.
      slots[index].state = 1
      return index
    }
    return nil
  }

  /// Whether the mapping in `slot` was found truncated.
  static func wasTruncated(_ slot: Int) -> Bool {
    slots[slot].state == 2
  }

  /// Frees `slot`; call before the mapping is unmapped.
  static func unregister(_ slot: Int) {
    lock.lock()
    defer { lock.unlock() }
    slots[slot].state = 0
  }

  /// The signal handler's work: async-signal-safe (reads and a system call).
  static func handleFault(at address: UInt) {
    for index in 0..<capacity {
      let slot = slots[index]
      guard slot.state != 0, address >= slot.start, address < slot.end else { continue }
      let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
      let from = address / page * page
      let zeros = mmap(
        UnsafeMutableRawPointer(bitPattern: from), Int(slot.end - from), PROT_READ,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
      if zeros != MAP_FAILED {
        slots[index].state = 2
        return
      }
      break
    }
    sigaction(SIGBUS, previous, nil)
  }
}
