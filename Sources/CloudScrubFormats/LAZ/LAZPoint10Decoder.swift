/// One field group of a LAZ point record that an item codec restores, given the
/// record's bytes at the item's offset. A decoder holds its chunk's models and the
/// last values; a new chunk starts a new decoder.
protocol LAZItemDecoder: AnyObject {
  /// Decodes the next record's item into `item` (the item's bytes in the record).
  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder)
}

/// Which of 16 return contexts a return `r` of `n` falls in (LASzip's point10 codec).
enum LAZReturnContexts {
  static let map: [[UInt8]] = [
    [15, 14, 13, 12, 11, 10, 9, 8],
    [14, 0, 1, 3, 6, 10, 10, 9],
    [13, 1, 2, 4, 7, 11, 11, 10],
    [12, 3, 4, 5, 8, 12, 12, 11],
    [11, 6, 7, 8, 9, 13, 13, 12],
    [10, 10, 11, 12, 13, 14, 14, 13],
    [9, 10, 11, 12, 13, 14, 15, 14],
    [8, 9, 10, 11, 12, 13, 14, 15],
  ]
}

/// The `point10` item, version 2: x y z intensity, return bits, classification, scan
/// angle, user data, point source (the first 20 bytes of LAS formats 0–5).
final class LAZPoint10Decoder: LAZItemDecoder {
  private var last = [UInt8](repeating: 0, count: 20)
  private var lastIntensity = [UInt16](repeating: 0, count: 16)
  private var xMedians = [LAZMedian5](repeating: LAZMedian5(), count: 16)
  private var yMedians = [LAZMedian5](repeating: LAZMedian5(), count: 16)
  private var lastHeight = [Int32](repeating: 0, count: 8)
  private let changed = LAZSymbolModel(symbols: 64)
  private let intensity = LAZIntegerDecompressor(bits: 16, contexts: 4)
  private let scanAngle = [LAZSymbolModel(symbols: 256), LAZSymbolModel(symbols: 256)]
  private let pointSource = LAZIntegerDecompressor(bits: 16)
  private var bitByte = [LAZSymbolModel?](repeating: nil, count: 256)
  private var classification = [LAZSymbolModel?](repeating: nil, count: 256)
  private var userData = [LAZSymbolModel?](repeating: nil, count: 256)
  private let dx = LAZIntegerDecompressor(bits: 32, contexts: 2)
  private let dy = LAZIntegerDecompressor(bits: 32, contexts: 22)
  private let z = LAZIntegerDecompressor(bits: 32, contexts: 20)

  /// Starts from the chunk's first record, stored raw.
  init(first: UnsafeRawPointer) {
    for i in 0..<20 { last[i] = first.load(fromByteOffset: i, as: UInt8.self) }
    last[12] = 0
    last[13] = 0
  }

  private static func model(_ models: inout [LAZSymbolModel?], _ index: UInt8) -> LAZSymbolModel {
    if let model = models[Int(index)] { return model }
    let model = LAZSymbolModel(symbols: 256)
    models[Int(index)] = model
    return model
  }

  private func int32(at offset: Int) -> Int32 {
    Int32(
      bitPattern: UInt32(last[offset]) | UInt32(last[offset + 1]) << 8
        | UInt32(last[offset + 2]) << 16 | UInt32(last[offset + 3]) << 24)
  }

  private func store(_ value: Int32, at offset: Int) {
    let bits = UInt32(bitPattern: value)
    for i in 0..<4 { last[offset + i] = UInt8(truncatingIfNeeded: bits >> (8 * i)) }
  }

  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder) {
    let changes = decoder.decodeSymbol(changed)
    var returnNumber = Int(last[14] & 7)
    var returns = Int((last[14] >> 3) & 7)
    var m = Int(LAZReturnContexts.map[returns][returnNumber])
    if changes != 0 {
      if changes & 32 != 0 {
        last[14] = UInt8(decoder.decodeSymbol(Self.model(&bitByte, last[14])))
        returnNumber = Int(last[14] & 7)
        returns = Int((last[14] >> 3) & 7)
        m = Int(LAZReturnContexts.map[returns][returnNumber])
      }
      if changes & 16 != 0 {
        let value = intensity.decompress(
          Int32(lastIntensity[m]), context: min(m, 3), &decoder)
        lastIntensity[m] = UInt16(truncatingIfNeeded: value)
      }
      if changes & 8 != 0 {
        last[15] = UInt8(decoder.decodeSymbol(Self.model(&classification, last[15])))
      }
      if changes & 4 != 0 {
        let step = decoder.decodeSymbol(scanAngle[Int(last[14] >> 6) & 1])
        last[16] = UInt8(truncatingIfNeeded: step &+ UInt32(last[16]))
      }
      if changes & 2 != 0 {
        last[17] = UInt8(decoder.decodeSymbol(Self.model(&userData, last[17])))
      }
      if changes & 1 != 0 {
        let source = Int32(last[18]) | Int32(last[19]) << 8
        let value = pointSource.decompress(source, &decoder)
        last[18] = UInt8(truncatingIfNeeded: value)
        last[19] = UInt8(truncatingIfNeeded: value >> 8)
      }
    }
    let intensityValue = lastIntensity[m]
    last[12] = UInt8(truncatingIfNeeded: intensityValue)
    last[13] = UInt8(truncatingIfNeeded: intensityValue >> 8)
    let single = returns == 1 ? 1 : 0
    let dxValue = dx.decompress(xMedians[m].median, context: single, &decoder)
    store(int32(at: 0) &+ dxValue, at: 0)
    xMedians[m].add(dxValue)
    var kBits = dx.k
    let dyValue = dy.decompress(
      yMedians[m].median, context: single + Int(kBits < 20 ? kBits & ~1 : 20), &decoder)
    store(int32(at: 4) &+ dyValue, at: 4)
    yMedians[m].add(dyValue)
    kBits = (dx.k + dy.k) / 2
    let l = abs(returns - returnNumber)
    let height = z.decompress(
      lastHeight[l], context: single + Int(kBits < 18 ? kBits & ~1 : 18), &decoder)
    store(height, at: 8)
    lastHeight[l] = height
    item.copyMemory(from: last, byteCount: 20)
  }
}
