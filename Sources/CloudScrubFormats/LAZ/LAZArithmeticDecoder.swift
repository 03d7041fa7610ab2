/// LASzip's arithmetic decoder (a 32-bit range coder) over one run of compressed bytes:
/// a chunk's, or one layer of a chunk.
///
/// Reads past the end yield zeros and are counted in `overrun`: a well-formed stream
/// never reads past its end (its coder pads the tail), so an overrun means a corrupt or
/// cut chunk, which the caller reports. Nothing here traps on hostile bytes.
struct LAZArithmeticDecoder {
  static let minLength: UInt32 = 0x0100_0000

  private let base: UnsafePointer<UInt8>?
  private let end: Int
  private var position: Int
  private var value: UInt32 = 0
  private var length: UInt32 = 0xFFFF_FFFF
  /// Bytes read past the end, as zeros.
  private(set) var overrun = 0

  /// The bytes read so far: once a stream's last symbol is decoded, its whole length
  /// (the encoder pads its end to what the decoder reads ahead).
  var consumed: Int { position }

  /// A decoder over `bytes`, which it reads from the start (4 bytes at once).
  init(_ bytes: UnsafeRawBufferPointer) {
    base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
    end = bytes.count
    position = 0
    for _ in 0..<4 { value = (value << 8) | UInt32(nextByte()) }
  }

  @inline(__always) private mutating func nextByte() -> UInt8 {
    guard position < end, let base else {
      overrun += 1
      return 0
    }
    defer { position += 1 }
    return base[position]
  }

  @inline(__always) private mutating func renormalize() {
    if length == 0 {
      overrun += 1
      length = 1
    }
    repeat {
      value = (value << 8) | UInt32(nextByte())
      length <<= 8
    } while length < Self.minLength
  }

  /// One bit under `model`.
  @inline(__always) mutating func decodeBit(_ model: LAZBitModel) -> UInt32 {
    let x = model.zeroChance &* (length >> LAZBitModel.lengthShift)
    let bit: UInt32
    if value >= x {
      bit = 1
      value &-= x
      length &-= x
    } else {
      bit = 0
      length = x
    }
    if length < Self.minLength { renormalize() }
    model.count(zero: bit == 0)
    return bit
  }

  /// One symbol under `model`.
  @inline(__always) mutating func decodeSymbol(_ model: LAZSymbolModel) -> UInt32 {
    var y = length
    var x: UInt32 = 0
    var symbol: UInt32 = 0
    length >>= LAZSymbolModel.lengthShift
    let distribution = model.distribution
    if let table = model.table {
      let dv = value / length
      let t = Int(min(dv >> model.tableShift, model.tableSize))
      symbol = table[t]
      var n = table[t + 1] &+ 1
      if n > model.symbols { n = model.symbols }
      if symbol >= n { symbol = n &- 1 }
      while n > symbol &+ 1 {
        let k = (symbol &+ n) >> 1
        if distribution[Int(k)] > dv { n = k } else { symbol = k }
      }
      x = distribution[Int(symbol)] &* length
      if symbol != model.lastSymbol { y = distribution[Int(symbol) + 1] &* length }
    } else {
      var n = model.symbols
      var k = n >> 1
      repeat {
        let z = length &* distribution[Int(k)]
        if z > value {
          n = k
          y = z
        } else {
          symbol = k
          x = z
        }
        k = (symbol &+ n) >> 1
      } while k != symbol
    }
    value &-= x
    length = y &- x
    if length < Self.minLength { renormalize() }
    model.count(symbol)
    return symbol
  }

  /// `bits` raw bits (1…32).
  @inline(__always) mutating func readBits(_ bits: UInt32) -> UInt32 {
    if bits > 19 {
      let low = readShort()
      let high = readBits(bits - 16)
      return (high << 16) | low
    }
    length >>= bits
    let symbol = value / max(length, 1)
    value &-= length &* symbol
    if length < Self.minLength { renormalize() }
    return symbol
  }

  /// 16 raw bits.
  @inline(__always) mutating func readShort() -> UInt32 {
    length >>= 16
    let symbol = value / max(length, 1)
    value &-= length &* symbol
    if length < Self.minLength { renormalize() }
    return symbol
  }

  /// 32 raw bits, the low half first.
  mutating func readInt() -> UInt32 {
    let low = readShort()
    let high = readShort()
    return (high << 16) | low
  }
}
