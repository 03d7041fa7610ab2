import Foundation

/// LASzip's arithmetic encoder, the inverse of `LAZArithmeticDecoder`: it narrows a
/// 32-bit interval by each symbol's share under the same adaptive models, and emits the
/// interval's top byte whenever the interval shrinks below 2^24. A carry out of the
/// interval's base is added back into the bytes already emitted.
///
/// The bytes go to a buffer of the encoder's own, which the chunk's `LAZArena` frees: an
/// encoder lives in arena memory (`LAZArena.encoders`) and is never copied out.
struct LAZArithmeticEncoder {
  private static let minLength = LAZArithmeticDecoder.minLength

  private var start: UnsafeMutablePointer<UInt8>?
  private var count = 0
  private var capacity = 0
  private var base: UInt32 = 0
  private var length: UInt32 = 0xFFFF_FFFF
  /// Whether anything was coded.
  private(set) var used = false

  init() {}

  /// Frees the bytes (the arena's part).
  mutating func release() {
    free(start)
    start = nil
    count = 0
    capacity = 0
  }

  @inline(__always) private mutating func emit(_ byte: UInt8) {
    if count == capacity { grow() }
    start.unsafelyUnwrapped[count] = byte
    count += 1
  }

  private mutating func grow() {
    capacity = max(1 << 12, 2 * capacity)
    guard let grown = realloc(start, capacity) else { fatalError("out of memory for LAZ bytes") }
    start = grown.assumingMemoryBound(to: UInt8.self)
  }

  /// Adds one to the bytes already emitted (a carry out of `base`).
  @inline(__always) private mutating func carry() {
    guard let start else { return }
    var index = count - 1
    while index >= 0 && start[index] == 0xFF {
      start[index] = 0
      index -= 1
    }
    if index >= 0 { start[index] &+= 1 }
  }

  @inline(__always) private mutating func renormalize() {
    repeat {
      emit(UInt8(truncatingIfNeeded: base >> 24))
      base <<= 8
      length <<= 8
    } while length < Self.minLength
  }

  /// Narrows the interval to `[base + low, base + low + size)`, carrying when the base
  /// wraps.
  @inline(__always) private mutating func narrow(low: UInt32, size: UInt32) {
    let old = base
    base &+= low
    length = size
    if old > base { carry() }
    if length < Self.minLength { renormalize() }
  }

  /// One bit under `model`.
  @inline(__always) mutating func encodeBit(_ model: LAZBitModel, _ bit: UInt32) {
    used = true
    let x = model.zeroChance &* (length >> LAZBitModel.lengthShift)
    if bit == 0 {
      narrow(low: 0, size: x)
    } else {
      narrow(low: x, size: length &- x)
    }
    model.count(zero: bit == 0)
  }

  /// One symbol (below the model's symbol count) under `model`.
  @inline(__always) mutating func encodeSymbol(_ model: LAZSymbolModel, _ symbol: UInt32) {
    used = true
    let distribution = model.distribution
    let low: UInt32
    let size: UInt32
    if symbol == model.lastSymbol {
      // The last symbol takes the rest of the interval, as the decoder gives it.
      low = distribution[Int(symbol)] &* (length >> LAZSymbolModel.lengthShift)
      size = length &- low
    } else {
      let unit = length >> LAZSymbolModel.lengthShift
      low = distribution[Int(symbol)] &* unit
      size = distribution[Int(symbol) + 1] &* unit &- low
    }
    narrow(low: low, size: size)
    model.count(symbol)
  }

  /// The low `bits` bits (1…32) of `value`, raw.
  @inline(__always) mutating func writeBits(_ bits: UInt32, _ value: UInt32) {
    used = true
    if bits > 19 {
      writeShort(value & 0xFFFF)
      writeBits(bits - 16, value >> 16)
      return
    }
    let unit = length >> bits
    narrow(low: (value & ((1 << bits) - 1)) &* unit, size: unit)
  }

  /// 16 raw bits.
  @inline(__always) mutating func writeShort(_ value: UInt32) {
    used = true
    let unit = length >> 16
    narrow(low: (value & 0xFFFF) &* unit, size: unit)
  }

  /// 32 raw bits, the low half first.
  mutating func writeInt(_ value: UInt32) {
    writeShort(value & 0xFFFF)
    writeShort(value >> 16)
  }

  /// Emits the bytes that pin the final interval down, then the zeros the decoder reads
  /// ahead (it holds four bytes at a time), and returns every byte.
  mutating func finish() -> [UInt8] {
    var padding = 3
    if length > 2 * Self.minLength {
      narrow(low: Self.minLength, size: Self.minLength >> 1)
    } else {
      narrow(low: Self.minLength >> 1, size: Self.minLength >> 9)
      padding = 2
    }
    for _ in 0..<padding { emit(0) }
    return Array(UnsafeBufferPointer(start: start, count: count))
  }
}
