import Foundation

/// Decodes LZFSE (v1 and v2) blocks: four interleaved FSE streams of literals, then
/// one FSE stream of (L, M, D) triples executed against the output. Holds its tables
/// and literal buffer across blocks so a stream allocates them once.
final class LZFSEBlockDecoder {
  private typealias Header = LZFSECompressedHeader

  private let literalTable = UnsafeMutablePointer<FSELiteralEntry>.allocate(
    capacity: Header.literalStates)
  /// The L, M and D tables in one allocation, so the hot loop keeps one base pointer.
  private let valueTables = UnsafeMutablePointer<FSEValueEntry>.allocate(
    capacity: Header.lStates + Header.mStates + Header.dStates)
  private var lTable: UnsafeMutablePointer<FSEValueEntry> { valueTables }
  private var mTable: UnsafeMutablePointer<FSEValueEntry> { valueTables + Header.lStates }
  private var dTable: UnsafeMutablePointer<FSEValueEntry> {
    valueTables + Header.lStates + Header.mStates
  }
  /// Room for a block's literals plus padding for 16-byte copies past the last one.
  private let literals: UnsafeMutablePointer<UInt8>
  private static let literalCapacity = LZFSEFormat.literalsPerBlock + 64

  init() {
    literals = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.literalCapacity)
    literals.initialize(repeating: 0, count: Self.literalCapacity)
  }

  deinit {
    literalTable.deallocate()
    valueTables.deallocate()
    literals.deallocate()
  }

  /// Decodes the block framed by `frame` and appends its bytes to `output`.
  func decode(_ frame: LZFSEBlockFrame, _ input: LZFSEInput, into output: inout LZFSEOutput) throws
  {
    let header = try Header.read(input, frame: frame)
    try buildTables(header, at: frame.offset)
    let literalStart = frame.payloadOffset
    let lmdStart = literalStart + header.counts.literalPayload
    try decodeLiterals(header, input, start: literalStart, end: lmdStart)
    try output.reserve(header.counts.raw, blockOffset: frame.offset)
    try executeMatches(
      header, input, start: lmdStart, end: lmdStart + header.counts.lmdPayload, output: &output)
  }

  private func buildTables(_ header: Header, at offset: Int) throws {
    let frequencies = header.frequencies
    let counts = header.counts
    let tables: [(String, Int, Int, Int, Bool)] = [
      (
        "literal", Header.literalFirst, Header.literalSymbols, Header.literalStates,
        counts.literals > 0
      ),
      ("L", Header.lFirst, Header.lSymbols, Header.lStates, counts.matches > 0),
      ("M", Header.mFirst, Header.mSymbols, Header.mStates, counts.matches > 0),
      ("D", Header.dFirst, Header.dSymbols, Header.dStates, counts.matches > 0),
    ]
    for (name, first, count, states, used) in tables {
      let empty = try FSETables.check(
        frequencies, first: first, count: count, states: states, name: name, offset: offset)
      // An empty table is only fine for a stream that holds no symbols.
      if empty && used {
        throw LZFSEError(.invalidFrequencyTable(table: name, sum: 0, states: states), at: offset)
      }
    }
    FSETables.buildLiterals(
      frequencies, first: Header.literalFirst, states: Header.literalStates, into: literalTable)
    FSETables.buildValues(
      frequencies, first: Header.lFirst, count: Header.lSymbols, states: Header.lStates,
      extraBits: FSETables.lExtraBits, baseValues: FSETables.lBaseValues, into: lTable)
    FSETables.buildValues(
      frequencies, first: Header.mFirst, count: Header.mSymbols, states: Header.mStates,
      extraBits: FSETables.mExtraBits, baseValues: FSETables.mBaseValues, into: mTable)
    FSETables.buildValues(
      frequencies, first: Header.dFirst, count: Header.dSymbols, states: Header.dStates,
      extraBits: FSETables.dExtraBits, baseValues: FSETables.dBaseValues, into: dTable)
  }

  /// Decodes the literals, four at a time (the encoder pads them to a multiple of
  /// four), each of the four streams with its own state.
  private func decodeLiterals(_ header: Header, _ input: LZFSEInput, start: Int, end: Int) throws {
    let count = header.counts.literals
    if count == 0 { return }
    var reader = try FSEBitReader(
      input, start: start, end: end, initialBits: header.literalBits, name: "literal")
    let table = literalTable
    let out = literals
    let mask = Header.literalStates - 1
    var (state0, state1, state2, state3) = header.literalStates
    var index = 0
    // Four symbols take at most 40 bits, and a refill leaves at least 56.
    while index < count {
      reader.refillPadded()
      let entry0 = table[state0]
      state0 =
        (Int(entry0.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(entry0.bitCount)))) & mask
      out[index] = entry0.symbol
      let entry1 = table[state1]
      state1 =
        (Int(entry1.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(entry1.bitCount)))) & mask
      out[index &+ 1] = entry1.symbol
      let entry2 = table[state2]
      state2 =
        (Int(entry2.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(entry2.bitCount)))) & mask
      out[index &+ 2] = entry2.symbol
      let entry3 = table[state3]
      state3 =
        (Int(entry3.delta) &+ Int(truncatingIfNeeded: reader.pull(Int(entry3.bitCount)))) & mask
      out[index &+ 3] = entry3.symbol
      index &+= 4
      // Past the stream, the padding grows by a byte per refill; stop early on
      // corrupt input rather than decode thousands of literals from zeros.
      if reader.paddingBits > 64 { break }
    }
    guard !reader.overran, index >= count else {
      throw LZFSEError(.invalidBitStream(stream: "literal"), at: start)
    }
  }

  /// Reads one value (L, M or D) and advances that stream's state.
  @inline(__always) private static func value(
    _ table: UnsafeMutablePointer<FSEValueEntry>, _ state: inout Int, mask: Int,
    _ reader: inout FSEBitReader
  ) -> Int {
    let entry = table[state]
    let bits = reader.pull(Int(entry.totalBits))
    let valueBits = UInt64(entry.valueBits)
    state = (Int(entry.delta) &+ Int(truncatingIfNeeded: bits &>> valueBits)) & mask
    return Int(entry.base) &+ Int(truncatingIfNeeded: bits & ((1 &<< valueBits) &- 1))
  }

  /// Decodes the (L, M, D) triples and copies literals and matches to the output.
  private func executeMatches(
    _ header: Header, _ input: LZFSEInput, start: Int, end: Int, output: inout LZFSEOutput
  ) throws {
    let counts = header.counts
    let blockOffset = start
    var reader = try FSEBitReader(
      input, start: start, end: end, initialBits: header.lmdBits, name: "L, M, D")
    var lState = header.lState
    var mState = header.mState
    var dState = header.dState
    let outputBase = output.base
    let blockStart = outputBase + output.count
    let blockEnd = blockStart + counts.raw
    var dst = blockStart
    var literal = UnsafePointer(literals)
    let literalEnd = literal + counts.literals
    var distance = 0
    var remaining = counts.matches
    let lTable = self.lTable
    let mTable = self.mTable
    let dTable = self.dTable
    while remaining > 0 {
      // One triple takes at most 14 + 17 + 23 = 54 bits; a refill leaves 56 or more.
      guard reader.refill() else {
        throw LZFSEError(.invalidBitStream(stream: "L, M, D"), at: blockOffset)
      }
      let literalLength = Self.value(lTable, &lState, mask: Header.lStates - 1, &reader)
      let matchLength = Self.value(mTable, &mState, mask: Header.mStates - 1, &reader)
      let newDistance = Self.value(dTable, &dState, mask: Header.dStates - 1, &reader)
      // Distance 0 means "the same distance as the previous match".
      if newDistance != 0 { distance = newDistance }
      remaining &-= 1

      guard literalLength <= literalEnd - literal else {
        throw LZFSEError(
          .blockSizeMismatch(
            declared: counts.literals, actual: literal - UnsafePointer(literals) + literalLength),
          at: blockOffset)
      }
      guard literalLength &+ matchLength <= blockEnd - dst else {
        throw LZFSEError(
          .blockSizeMismatch(
            declared: counts.raw, actual: dst - blockStart + literalLength + matchLength),
          at: blockOffset)
      }
      LZCopy.literals(from: literal, to: dst, count: literalLength)
      dst += literalLength
      literal += literalLength
      if matchLength > 0 {
        guard distance > 0, distance <= dst - outputBase else {
          throw LZFSEError(
            .invalidMatchDistance(distance: distance, available: dst - outputBase), at: blockOffset)
        }
        LZCopy.match(at: dst, distance: distance, count: matchLength)
        dst += matchLength
      }
    }
    guard dst == blockEnd else {
      throw LZFSEError(
        .blockSizeMismatch(declared: counts.raw, actual: dst - blockStart), at: blockOffset)
    }
    output.count += counts.raw
  }
}

/// The copies of an LZ decoder, in whole words. They may write up to 15 bytes past
/// `count` (the output's slack) and read up to 15 past their source (padding).
enum LZCopy {
  @inline(__always) static func literals(
    from source: UnsafeRawPointer, to destination: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    var index = 0
    while index < count {
      let word0 = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      let word1 = source.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
      UnsafeMutableRawPointer(destination + index).storeBytes(of: word0, as: UInt64.self)
      UnsafeMutableRawPointer(destination + index + 8).storeBytes(of: word1, as: UInt64.self)
      index &+= 16
    }
  }

  /// Copies `count` bytes exactly, for sources without padding after them.
  @inline(__always) static func literalsExactly(
    from source: UnsafeRawPointer, to destination: UnsafeMutablePointer<UInt8>, count: Int
  ) {
    var index = 0
    while index < count {
      destination[index] = source.load(fromByteOffset: index, as: UInt8.self)
      index &+= 1
    }
  }

  /// Copies `count` bytes from `distance` back, byte-exact where the two overlap
  /// (distance 1 repeats one byte). Short distances first copy enough bytes one by
  /// one to make a period of at least 8, then continue in words at that period.
  @inline(__always) static func match(
    at destination: UnsafeMutablePointer<UInt8>, distance: Int, count: Int
  ) {
    var step = distance
    var index = 0
    if distance < 8 {
      step = distance &* ((8 &+ distance &- 1) / distance)
      let head = min(step, count)
      while index < head {
        destination[index] = destination[index &- distance]
        index &+= 1
      }
    }
    let source = UnsafeRawPointer(destination - step)
    let target = UnsafeMutableRawPointer(destination)
    if step >= 16 {
      while index < count {
        let word0 = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let word1 = source.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
        target.storeBytes(of: word0, toByteOffset: index, as: UInt64.self)
        target.storeBytes(of: word1, toByteOffset: index &+ 8, as: UInt64.self)
        index &+= 16
      }
      return
    }
    while index < count {
      let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      target.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
      index &+= 8
    }
  }
}
