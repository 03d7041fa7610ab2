import Foundation

/// One state of a literal decoding table: the bits to read for the next state, the
/// symbol emitted, and the base of the next state.
struct FSELiteralEntry {
  var bitCount: UInt8
  var symbol: UInt8
  var delta: UInt16
}

/// One state of an L, M or D decoding table. The symbol is already turned into its
/// base value; `valueBits` extra bits follow the state bits and are added to it.
struct FSEValueEntry {
  var totalBits: UInt8
  var valueBits: UInt8
  var delta: UInt16
  var base: UInt32
}

/// Building the tables of the FSE (tANS) decoders from normalized frequencies.
enum FSETables {
  /// Checks that the frequencies of `count` symbols from `first` sum to `states`
  /// (or are all zero, an empty table). Returns whether the table is empty.
  static func check(
    _ frequencies: [UInt16], first: Int, count: Int, states: Int, name: String, offset: Int
  ) throws -> Bool {
    var sum = 0
    for index in first..<(first + count) { sum += Int(frequencies[index]) }
    guard sum == states || sum == 0 else {
      throw LZFSEError(.invalidFrequencyTable(table: name, sum: sum, states: states), at: offset)
    }
    return sum == 0
  }

  /// Calls `body(symbol, bits, delta)` for each state in order, the way the format
  /// spreads a symbol of frequency f over f consecutive states: the first states
  /// read one bit more than the rest so that the next state covers the table.
  @inline(__always) private static func spread(
    _ frequencies: [UInt16], first: Int, count: Int, states: Int,
    _ body: (_ state: Int, _ symbol: Int, _ bits: Int, _ delta: Int) -> Void
  ) {
    let statesLeadingZeros = UInt32(states).leadingZeroBitCount
    var state = 0
    for symbol in 0..<count {
      let frequency = Int(frequencies[first + symbol])
      if frequency == 0 { continue }
      // k makes states <= frequency << k < 2 * states.
      let k = UInt32(frequency).leadingZeroBitCount - statesLeadingZeros
      let firstShorter = ((2 * states) >> k) - frequency
      for j in 0..<frequency where state < states {
        if j < firstShorter {
          body(state, symbol, k, ((frequency + j) << k) - states)
        } else {
          body(state, symbol, k - 1, (j - firstShorter) << (k - 1))
        }
        state += 1
      }
    }
  }

  /// Fills `table` (with room for `states` entries) for the literal stream.
  static func buildLiterals(
    _ frequencies: [UInt16], first: Int, states: Int,
    into table: UnsafeMutablePointer<FSELiteralEntry>
  ) {
    table.update(repeating: FSELiteralEntry(bitCount: 0, symbol: 0, delta: 0), count: states)
    spread(frequencies, first: first, count: 256, states: states) { state, symbol, bits, delta in
      table[state] = FSELiteralEntry(
        bitCount: UInt8(bits), symbol: UInt8(symbol), delta: UInt16(delta))
    }
  }

  /// Fills `table` for an L, M or D stream, folding in each symbol's base value and
  /// extra bits.
  static func buildValues(
    _ frequencies: [UInt16], first: Int, count: Int, states: Int, extraBits: [UInt8],
    baseValues: [UInt32], into table: UnsafeMutablePointer<FSEValueEntry>
  ) {
    table.update(
      repeating: FSEValueEntry(totalBits: 0, valueBits: 0, delta: 0, base: 0), count: states)
    spread(frequencies, first: first, count: count, states: states) { state, symbol, bits, delta in
      table[state] = FSEValueEntry(
        totalBits: UInt8(bits) + extraBits[symbol], valueBits: extraBits[symbol],
        delta: UInt16(delta), base: baseValues[symbol])
    }
  }

  static let lExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 5, 8]
  static let lBaseValues: [UInt32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 28, 60,
  ]
  static let mExtraBits: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 5, 8, 11]
  static let mBaseValues: [UInt32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 56, 312,
  ]
  /// D symbols come in groups of four with 0, 0, 0, 0, 1, 1, 1, 1, 2, ... 15 extra bits.
  static let dExtraBits: [UInt8] = (0..<64).map { UInt8($0 / 4) }
  /// Each D base is the previous base plus the range its extra bits cover.
  static let dBaseValues: [UInt32] = {
    var values: [UInt32] = [0]
    for symbol in 1..<64 {
      values.append(values[symbol - 1] + (UInt32(1) << UInt32(dExtraBits[symbol - 1])))
    }
    return values
  }()
}

/// An FSE bit stream, read backwards from the end of its payload: the encoder wrote
/// it forwards and the decoder undoes it last symbol first. Holds 56 to 63 bits
/// after each `refill`.
struct FSEBitReader {
  var accumulator: UInt64
  var bitCount: Int
  /// Bytes `[start, position)` are still unread.
  var position: Int
  /// Zero bits shifted in by `refillPadded` below the real ones.
  var paddingBits = 0
  let start: Int
  let input: LZFSEInput

  /// Starts reading the stream `[start, end)`; `initialBits` (-8...0) is how many
  /// bits short of a whole byte the encoder's last write was.
  init(_ input: LZFSEInput, start: Int, end: Int, initialBits: Int, name: String) throws {
    self.input = input
    self.start = start
    let byteCount = initialBits == 0 ? 7 : 8
    guard end - start >= byteCount else {
      throw LZFSEError(.invalidBitStream(stream: name), at: start)
    }
    position = end - byteCount
    var value: UInt64 = 0
    for index in 0..<byteCount {
      value |= UInt64(input.byte(position + index)) << UInt64(8 * index)
    }
    accumulator = value
    bitCount = initialBits + 8 * byteCount
    // The encoder leaves the bits above the last one it wrote at zero.
    guard bitCount >= 56, bitCount < 64, accumulator >> UInt64(bitCount) == 0 else {
      throw LZFSEError(.invalidBitStream(stream: name), at: start)
    }
  }

  /// Tops the accumulator up to 56...63 bits. Returns false if that would read
  /// before the start of the stream.
  @inline(__always) mutating func refill() -> Bool {
    let newBits = (63 &- bitCount) & ~7
    let newPosition = position &- (newBits &>> 3)
    if newPosition < start { return false }
    var incoming: UInt64
    if newPosition &+ 8 <= input.count {
      incoming = UInt64(
        littleEndian: input.base.loadUnaligned(fromByteOffset: newPosition, as: UInt64.self))
    } else {
      incoming = 0
      var index = 0
      while index < newBits &>> 3 {
        incoming |= UInt64(input.byte(newPosition &+ index)) &<< UInt64(8 &* index)
        index &+= 1
      }
    }
    position = newPosition
    accumulator = (accumulator &<< UInt64(newBits)) | (incoming & ((1 &<< UInt64(newBits)) &- 1))
    bitCount &+= newBits
    return true
  }

  /// Like `refill`, but bytes before the start of the stream read as zeros. The
  /// reference encoder's literal streams rely on this: their last refills read
  /// bytes before the stream (in the header) whose bits are never used. Callers
  /// check `overran` when done.
  @inline(__always) mutating func refillPadded() {
    if refill() { return }
    let newBits = (63 &- bitCount) & ~7
    let newPosition = position &- (newBits &>> 3)
    var incoming: UInt64 = 0
    var index = start &- newPosition
    while index < newBits &>> 3 {
      incoming |= UInt64(input.byte(newPosition &+ index)) &<< UInt64(8 &* index)
      index &+= 1
    }
    paddingBits &+= 8 &* (start &- newPosition)
    position = start
    accumulator = (accumulator &<< UInt64(newBits)) | incoming
    bitCount &+= newBits
  }

  /// Whether more bits were pulled than the stream holds (some were padding).
  var overran: Bool { bitCount < paddingBits }

  /// The next `count` bits (at most what the accumulator holds). Bits above
  /// `bitCount` are left stale rather than cleared, an operation less per symbol;
  /// the result is masked instead.
  @inline(__always) mutating func pull(_ count: Int) -> UInt64 {
    bitCount &-= count
    return (accumulator &>> UInt64(truncatingIfNeeded: bitCount))
      & ((1 &<< UInt64(truncatingIfNeeded: count)) &- 1)
  }
}
