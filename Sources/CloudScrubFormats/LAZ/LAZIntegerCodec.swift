/// LASzip's integer codec: a value is its prediction plus a corrector, coded as the
/// corrector's bit length `k` (under one of `contexts` models) and then its bits (the top
/// `bitsHigh` of them under a model for that length, the rest raw). The same models
/// decompress and compress.
struct LAZIntegerCodec {
  private let correctorBits: UInt32
  private let correctorRange: UInt32
  private let correctorMin: Int32
  private let bitsHigh: UInt32
  private let lengthModels: UnsafeMutablePointer<LAZSymbolModel>
  private let zeroModel: LAZBitModel
  /// The model of a corrector of each bit length 1…`correctorBits` at index length − 1,
  /// made on first use: a chunk of a few points meets few lengths, and a fresh model is
  /// the same whenever it is made.
  private let correctorModels: UnsafeMutablePointer<LAZSymbolModel?>
  private let lastLength: UnsafeMutablePointer<UInt32>
  /// The chunk's arena, which outlives every codec made in it.
  private unowned(unsafe) let arena: LAZArena

  /// The bit length of the last corrector (`k`), a context for the next fields.
  var k: UInt32 { lastLength.pointee }

  /// Values of `bits` bits (32: any `Int32`), `contexts` length models.
  init(bits: UInt32 = 16, contexts: Int = 1, bitsHigh: UInt32 = 8, in arena: LAZArena) {
    if bits > 0 && bits < 32 {
      correctorBits = bits
      correctorRange = 1 << bits
      correctorMin = -Int32(correctorRange / 2)
    } else {
      correctorBits = 32
      correctorRange = 0
      correctorMin = Int32.min
    }
    self.bitsHigh = bitsHigh
    let lengths = Int(correctorBits) + 1
    let template = LAZSymbolModel(symbols: 2, in: arena)
    lengthModels = arena.buffer(contexts, template)
    for index in 0..<contexts { lengthModels[index] = LAZSymbolModel(symbols: lengths, in: arena) }
    correctorModels = arena.buffer(Int(correctorBits), nil)
    self.arena = arena
    zeroModel = LAZBitModel(in: arena)
    lastLength = arena.words(1)
  }

  /// The value predicted as `prediction` in `context`.
  @inline(__always) func decompress(
    _ prediction: Int32, context: Int = 0, _ decoder: inout LAZArithmeticDecoder
  ) -> Int32 {
    var real = prediction &+ corrector(lengthModels[context], &decoder)
    if real < 0 {
      real &+= Int32(bitPattern: correctorRange)
    } else if UInt32(bitPattern: real) >= correctorRange {
      real &-= Int32(bitPattern: correctorRange)
    }
    return real
  }

  /// Codes `real`, predicted as `prediction` in `context`.
  @inline(__always) func compress(
    _ prediction: Int32, _ real: Int32, context: Int = 0, _ encoder: inout LAZArithmeticEncoder
  ) {
    var c = real &- prediction
    if correctorRange != 0 {
      // Wrapped into the corrector's range, [min, min + range).
      let range = Int32(bitPattern: correctorRange)
      if c < correctorMin {
        c &+= range
      } else if c >= correctorMin &+ range {
        c &-= range
      }
    }
    // k: the bit length of c - 1 (c > 0) or -c (c ≤ 0); 0 for a corrector of 0 or 1.
    let magnitude = c <= 0 ? UInt32(bitPattern: 0 &- c) : UInt32(bitPattern: c &- 1)
    let k = UInt32(32 - magnitude.leadingZeroBitCount)
    lastLength.pointee = k
    encoder.encodeSymbol(lengthModels[context], k)
    guard k != 0 else {
      encoder.encodeBit(zeroModel, UInt32(bitPattern: c))
      return
    }
    guard k < 32 else { return }
    // Negative correctors map to [0, 2^(k-1)), positive ones to [2^(k-1), 2^k).
    let shifted = UInt32(bitPattern: c < 0 ? c &+ Int32(bitPattern: (1 << k) &- 1) : c &- 1)
    if k <= bitsHigh {
      encoder.encodeSymbol(correctorModel(k), shifted)
    } else {
      let rawBits = k - bitsHigh
      encoder.encodeSymbol(correctorModel(k), shifted >> rawBits)
      encoder.writeBits(rawBits, shifted & ((1 << rawBits) - 1))
    }
  }

  /// The model of correctors of bit length `k` (1…`correctorBits`).
  @inline(__always) private func correctorModel(_ k: UInt32) -> LAZSymbolModel {
    if let model = correctorModels[Int(k) - 1] { return model }
    let model = LAZSymbolModel(symbols: 1 << Int(min(k, bitsHigh)), in: arena)
    correctorModels[Int(k) - 1] = model
    return model
  }

  @inline(__always) private func corrector(
    _ lengths: LAZSymbolModel, _ decoder: inout LAZArithmeticDecoder
  ) -> Int32 {
    let k = decoder.decodeSymbol(lengths)
    lastLength.pointee = k
    guard k != 0 else { return Int32(bitPattern: decoder.decodeBit(zeroModel)) }
    guard k < 32 else { return correctorMin }
    var c: UInt32
    if k <= bitsHigh {
      c = decoder.decodeSymbol(correctorModel(k))
    } else {
      let rawBits = k - bitsHigh
      c = decoder.decodeSymbol(correctorModel(k))
      c = (c << rawBits) | decoder.readBits(rawBits)
    }
    let corrector = Int32(bitPattern: c)
    if c >= (1 << (k - 1)) { return corrector &+ 1 }
    return corrector &- Int32(bitPattern: (1 << k) &- 1)
  }
}

/// The median of the last five values, kept by insertion (LASzip's predictor of a
/// coordinate's step).
struct LAZMedian5 {
  private var values: (Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0)
  private var high = true

  var median: Int32 { values.2 }

  mutating func add(_ v: Int32) {
    if high {
      if v < values.2 {
        values.4 = values.3
        values.3 = values.2
        if v < values.0 {
          values.2 = values.1
          values.1 = values.0
          values.0 = v
        } else if v < values.1 {
          values.2 = values.1
          values.1 = v
        } else {
          values.2 = v
        }
      } else {
        if v < values.3 {
          values.4 = values.3
          values.3 = v
        } else {
          values.4 = v
        }
        high = false
      }
    } else {
      if values.2 < v {
        values.0 = values.1
        values.1 = values.2
        if values.4 < v {
          values.2 = values.3
          values.3 = values.4
          values.4 = v
        } else if values.3 < v {
          values.2 = values.3
          values.3 = v
        } else {
          values.2 = v
        }
      } else {
        if values.1 < v {
          values.0 = values.1
          values.1 = v
        } else {
          values.0 = v
        }
        high = true
      }
    }
  }
}
