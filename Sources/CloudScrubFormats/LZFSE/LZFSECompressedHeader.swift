import Foundation

/// Everything an LZFSE (v1 or v2) block header says: counts, the final encoder
/// states (the decoder's initial states), the bit-stream fill levels and the four
/// normalized frequency tables.
struct LZFSECompressedHeader {
  var counts: LZFSECounts
  var literalBits: Int
  var literalStates: (Int, Int, Int, Int)
  var lmdBits: Int
  var lState: Int
  var mState: Int
  var dState: Int
  /// L (20), M (20), D (64) and literal (256) frequencies, in that order.
  var frequencies: [UInt16]

  static let lSymbols = 20
  static let mSymbols = 20
  static let dSymbols = 64
  static let literalSymbols = 256
  static let lFirst = 0
  static let mFirst = 20
  static let dFirst = 40
  static let literalFirst = 104
  static let symbolCount = 360

  static let lStates = 64
  static let mStates = 64
  static let dStates = 256
  static let literalStates = 1024

  /// Reads the header of a v1 or v2 block whose frame has been read already.
  static func read(_ input: LZFSEInput, frame: LZFSEBlockFrame) throws -> LZFSECompressedHeader {
    let header =
      frame.kind == .v1 ? readV1(input, at: frame.offset) : try readV2(input, frame: frame)
    try header.validate(at: frame.offset)
    return header
  }

  private static func readV1(_ input: LZFSEInput, at offset: Int) -> LZFSECompressedHeader {
    let signedBits = { (at: Int) in Int(Int32(bitPattern: input.u32(offset + at))) }
    var frequencies = [UInt16](repeating: 0, count: symbolCount)
    for index in 0..<symbolCount {
      frequencies[index] = UInt16(input.u16(offset + 50 + 2 * index))
    }
    return LZFSECompressedHeader(
      counts: LZFSECounts(
        raw: Int(input.u32(offset + 4)), literals: Int(input.u32(offset + 12)),
        matches: Int(input.u32(offset + 16)), literalPayload: Int(input.u32(offset + 20)),
        lmdPayload: Int(input.u32(offset + 24))),
      literalBits: signedBits(28),
      literalStates: (
        input.u16(offset + 32), input.u16(offset + 34), input.u16(offset + 36),
        input.u16(offset + 38)
      ),
      lmdBits: signedBits(40), lState: input.u16(offset + 44), mState: input.u16(offset + 46),
      dState: input.u16(offset + 48), frequencies: frequencies)
  }

  private static func readV2(_ input: LZFSEInput, frame: LZFSEBlockFrame) throws
    -> LZFSECompressedHeader
  {
    let offset = frame.offset
    let fields0 = input.u64(offset + 8)
    let fields1 = input.u64(offset + 16)
    let fields2 = input.u64(offset + 24)
    let field = { (value: UInt64, shift: UInt64, width: UInt64) in
      Int((value >> shift) & ((1 << width) - 1))
    }
    var frequencies = [UInt16](repeating: 0, count: symbolCount)
    // A header with no table bytes leaves every table empty; the block can then hold
    // no literals and no matches, which validation enforces.
    if frame.headerSize > LZFSEFormat.v2FixedHeaderSize {
      try decodeFrequencies(
        input, from: offset + LZFSEFormat.v2FixedHeaderSize, to: offset + frame.headerSize,
        into: &frequencies, blockOffset: offset)
    }
    return LZFSECompressedHeader(
      counts: LZFSECounts(v2At: offset, input),
      literalBits: field(fields0, 60, 3) - 7,
      literalStates: (
        field(fields1, 0, 10), field(fields1, 10, 10), field(fields1, 20, 10),
        field(fields1, 30, 10)
      ),
      lmdBits: field(fields1, 60, 3) - 7, lState: field(fields2, 32, 10),
      mState: field(fields2, 42, 10), dState: field(fields2, 52, 10), frequencies: frequencies)
  }

  /// Decodes the v2 header's frequency tables: a fixed prefix code, least
  /// significant bit first. The low bits select a code length of 2, 3, 5, 8 or 14
  /// bits; the 8- and 14-bit codes carry 4 and 10 bits of value above a base.
  private static func decodeFrequencies(
    _ input: LZFSEInput, from start: Int, to end: Int, into frequencies: inout [UInt16],
    blockOffset: Int
  ) throws {
    var position = start
    var accumulator: UInt64 = 0
    var bitCount = 0
    for index in 0..<symbolCount {
      while bitCount <= 56 && position < end {
        accumulator |= UInt64(input.byte(position)) << UInt64(bitCount)
        bitCount += 8
        position += 1
      }
      let (value, length) = frequencyCode(accumulator)
      guard length <= bitCount else {
        throw LZFSEError(.truncated(what: "v2 frequency tables"), at: blockOffset)
      }
      frequencies[index] = value
      accumulator >>= UInt64(length)
      bitCount -= length
    }
    // The tables must fill the header exactly, short of a final partial byte.
    guard position == end, bitCount < 8 else {
      throw LZFSEError(
        .invalidHeader(field: "header_size", value: end - blockOffset), at: blockOffset)
    }
  }

  /// The value and the code length of the frequency code in the low bits of `bits`.
  @inline(__always) private static func frequencyCode(_ bits: UInt64) -> (UInt16, Int) {
    let low = Int(bits & 31)
    switch low & 3 {
    case 0: return (0, 2)
    case 2: return (1, 2)
    case 1: return (low & 4 == 0 ? 2 : 3, 3)
    default: break
    }
    // Low two bits 11: the third bit picks 5-bit codes (values 4...7) when it is 0.
    if low & 4 == 0 {
      return (UInt16(4 + (low >> 3)), 5)
    }
    if low & 8 == 0 {
      return (UInt16(8 + ((bits >> 4) & 0xf)), 8)
    }
    return (UInt16(24 + ((bits >> 4) & 0x3ff)), 14)
  }

  private func validate(at offset: Int) throws {
    try counts.validate(at: offset)
    let states: [(String, Int, Int)] = [
      ("literal_state[0]", literalStates.0, Self.literalStates),
      ("literal_state[1]", literalStates.1, Self.literalStates),
      ("literal_state[2]", literalStates.2, Self.literalStates),
      ("literal_state[3]", literalStates.3, Self.literalStates),
      ("l_state", lState, Self.lStates), ("m_state", mState, Self.mStates),
      ("d_state", dState, Self.dStates),
    ]
    for (name, value, limit) in states where value < 0 || value >= limit {
      throw LZFSEError(.invalidHeader(field: name, value: value), at: offset)
    }
    // The bit streams end with a partial byte of 0 to 7 bits (8 is accepted as the
    // reference's own range check does).
    guard (-8...0).contains(literalBits) else {
      throw LZFSEError(.invalidHeader(field: "literal_bits", value: literalBits), at: offset)
    }
    guard (-8...0).contains(lmdBits) else {
      throw LZFSEError(.invalidHeader(field: "lmd_bits", value: lmdBits), at: offset)
    }
  }
}
