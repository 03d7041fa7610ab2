import Foundation

/// Little-endian reads from the compressed input. Callers check bounds first.
struct LZFSEInput {
  let base: UnsafeRawPointer
  let count: Int

  @inline(__always) func byte(_ offset: Int) -> UInt8 {
    base.load(fromByteOffset: offset, as: UInt8.self)
  }

  @inline(__always) func u16(_ offset: Int) -> Int {
    Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
  }

  @inline(__always) func u32(_ offset: Int) -> UInt32 {
    UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  @inline(__always) func u64(_ offset: Int) -> UInt64 {
    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// Throws `truncated` unless `length` bytes from `offset` are present.
  func require(_ length: Int, at offset: Int, _ what: String) throws {
    guard length >= 0, offset <= count, length <= count - offset else {
      throw LZFSEError(.truncated(what: what), at: offset)
    }
  }
}

/// Format constants: block magics ("bvx?" read as a little-endian UInt32) and limits.
enum LZFSEFormat {
  static let endOfStreamMagic: UInt32 = 0x2478_7662  // "bvx$"
  static let uncompressedMagic: UInt32 = 0x2d78_7662  // "bvx-"
  static let v1Magic: UInt32 = 0x3178_7662  // "bvx1"
  static let v2Magic: UInt32 = 0x3278_7662  // "bvx2"
  static let lzvnMagic: UInt32 = 0x6e78_7662  // "bvxn"

  static let matchesPerBlock = 10_000
  static let literalsPerBlock = 40_000
  static let maxLValue = 315
  static let maxMValue = 2359
  /// The v1 header as the reference writes it: its C struct, padded to 4 bytes.
  static let v1HeaderSize = 772
  /// The v2 header up to its packed frequency tables.
  static let v2FixedHeaderSize = 32
  /// One LZVN payload byte produces at most this many output bytes (a 2-byte
  /// long match of 271), which bounds an LZVN block's believable raw size.
  static let lzvnMaxExpansion = 136
}

/// The framing of one block: where it is, how big its header and payload are, and
/// how many bytes it declares it decodes to. Enough to walk a stream without
/// decoding it.
struct LZFSEBlockFrame {
  enum Kind { case endOfStream, uncompressed, lzvn, v1, v2 }

  var kind: Kind
  var offset: Int
  var headerSize: Int
  var payloadSize: Int
  var rawSize: Int

  var payloadOffset: Int { offset + headerSize }
  var end: Int { offset + headerSize + payloadSize }

  /// Reads the framing of the block at `offset`, checking that the whole block is
  /// present and that its declared size is believable for its payload.
  static func read(_ input: LZFSEInput, at offset: Int) throws -> LZFSEBlockFrame {
    try input.require(4, at: offset, "block magic")
    let magic = input.u32(offset)
    var frame: LZFSEBlockFrame
    switch magic {
    case LZFSEFormat.endOfStreamMagic:
      return LZFSEBlockFrame(
        kind: .endOfStream, offset: offset, headerSize: 4, payloadSize: 0, rawSize: 0)
    case LZFSEFormat.uncompressedMagic:
      try input.require(8, at: offset, "uncompressed block header")
      let raw = Int(input.u32(offset + 4))
      frame = LZFSEBlockFrame(
        kind: .uncompressed, offset: offset, headerSize: 8, payloadSize: raw, rawSize: raw)
    case LZFSEFormat.lzvnMagic:
      try input.require(12, at: offset, "LZVN block header")
      let raw = Int(input.u32(offset + 4))
      let payload = Int(input.u32(offset + 8))
      guard raw <= payload * LZFSEFormat.lzvnMaxExpansion else {
        throw LZFSEError(.invalidHeader(field: "n_raw_bytes", value: raw), at: offset)
      }
      frame = LZFSEBlockFrame(
        kind: .lzvn, offset: offset, headerSize: 12, payloadSize: payload, rawSize: raw)
    case LZFSEFormat.v1Magic:
      try input.require(LZFSEFormat.v1HeaderSize, at: offset, "LZFSE v1 block header")
      let counts = LZFSECounts(
        raw: Int(input.u32(offset + 4)), literals: Int(input.u32(offset + 12)),
        matches: Int(input.u32(offset + 16)), literalPayload: Int(input.u32(offset + 20)),
        lmdPayload: Int(input.u32(offset + 24)))
      try counts.validate(at: offset)
      frame = LZFSEBlockFrame(
        kind: .v1, offset: offset, headerSize: LZFSEFormat.v1HeaderSize,
        payloadSize: counts.literalPayload + counts.lmdPayload, rawSize: counts.raw)
    case LZFSEFormat.v2Magic:
      try input.require(LZFSEFormat.v2FixedHeaderSize, at: offset, "LZFSE v2 block header")
      let counts = LZFSECounts(v2At: offset, input)
      try counts.validate(at: offset)
      let headerSize = Int(input.u64(offset + 24) & 0xffff_ffff)
      // The packed tables take at most 14 bits per symbol; 720 bytes is their
      // uncompressed size and so a generous ceiling.
      guard headerSize >= LZFSEFormat.v2FixedHeaderSize,
        headerSize <= LZFSEFormat.v2FixedHeaderSize + 720
      else {
        throw LZFSEError(.invalidHeader(field: "header_size", value: headerSize), at: offset)
      }
      frame = LZFSEBlockFrame(
        kind: .v2, offset: offset, headerSize: headerSize,
        payloadSize: counts.literalPayload + counts.lmdPayload, rawSize: counts.raw)
    default:
      throw LZFSEError(.unknownBlockMagic(magic), at: offset)
    }
    try input.require(frame.headerSize + frame.payloadSize, at: offset, "block payload")
    return frame
  }
}

/// The counts every LZFSE (v1 or v2) block header carries.
struct LZFSECounts {
  var raw: Int
  var literals: Int
  var matches: Int
  var literalPayload: Int
  var lmdPayload: Int

  init(raw: Int, literals: Int, matches: Int, literalPayload: Int, lmdPayload: Int) {
    self.raw = raw
    self.literals = literals
    self.matches = matches
    self.literalPayload = literalPayload
    self.lmdPayload = lmdPayload
  }

  init(v2At offset: Int, _ input: LZFSEInput) {
    let fields0 = input.u64(offset + 8)
    let fields1 = input.u64(offset + 16)
    self.init(
      raw: Int(input.u32(offset + 4)), literals: Int(fields0 & 0xfffff),
      matches: Int((fields0 >> 40) & 0xfffff), literalPayload: Int((fields0 >> 20) & 0xfffff),
      lmdPayload: Int((fields1 >> 40) & 0xfffff))
  }

  func validate(at offset: Int) throws {
    guard literals <= LZFSEFormat.literalsPerBlock else {
      throw LZFSEError(.invalidHeader(field: "n_literals", value: literals), at: offset)
    }
    guard matches <= LZFSEFormat.matchesPerBlock else {
      throw LZFSEError(.invalidHeader(field: "n_matches", value: matches), at: offset)
    }
    // Every output byte is a literal (at most n_literals of them) or part of a match.
    guard raw <= literals + matches * LZFSEFormat.maxMValue else {
      throw LZFSEError(.invalidHeader(field: "n_raw_bytes", value: raw), at: offset)
    }
  }
}
