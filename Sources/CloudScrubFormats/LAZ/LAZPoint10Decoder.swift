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
/// angle, user data, point source (the first 20 bytes of LAS formats 0–5). Like every
/// item decoder, it holds its chunk's models and last values (a new chunk starts a new
/// decoder) and decodes the next record's item into the item's bytes of the record.
final class LAZPoint10Decoder {
  private let arena: LAZArena
  /// The last record's 20 bytes.
  private let last: UnsafeMutablePointer<UInt8>
  private let lastIntensity: UnsafeMutablePointer<UInt16>
  private let xMedians: UnsafeMutablePointer<LAZMedian5>
  private let yMedians: UnsafeMutablePointer<LAZMedian5>
  private let lastHeight: UnsafeMutablePointer<Int32>
  private let changed: LAZSymbolModel
  private let intensity: LAZIntegerCodec
  private let scanAngle: [LAZSymbolModel]
  private let pointSource: LAZIntegerCodec
  /// Models made on first use, by the last value: bit byte, classification, user data.
  private let bitByte: UnsafeMutablePointer<LAZSymbolModel?>
  private let classification: UnsafeMutablePointer<LAZSymbolModel?>
  private let userData: UnsafeMutablePointer<LAZSymbolModel?>
  private let dx: LAZIntegerCodec
  private let dy: LAZIntegerCodec
  private let z: LAZIntegerCodec

  /// Starts from the chunk's first record, stored raw.
  init(first: UnsafeRawPointer, arena: LAZArena) {
    self.arena = arena
    last = arena.buffer(20, 0)
    last.update(from: first.assumingMemoryBound(to: UInt8.self), count: 20)
    last[12] = 0
    last[13] = 0
    lastIntensity = arena.buffer(16, 0)
    xMedians = arena.buffer(16, LAZMedian5())
    yMedians = arena.buffer(16, LAZMedian5())
    lastHeight = arena.buffer(8, 0)
    changed = LAZSymbolModel(symbols: 64, in: arena)
    intensity = LAZIntegerCodec(bits: 16, contexts: 4, in: arena)
    scanAngle = [LAZSymbolModel(symbols: 256, in: arena), LAZSymbolModel(symbols: 256, in: arena)]
    pointSource = LAZIntegerCodec(bits: 16, in: arena)
    bitByte = arena.buffer(256, nil)
    classification = arena.buffer(256, nil)
    userData = arena.buffer(256, nil)
    dx = LAZIntegerCodec(bits: 32, contexts: 2, in: arena)
    dy = LAZIntegerCodec(bits: 32, contexts: 22, in: arena)
    z = LAZIntegerCodec(bits: 32, contexts: 20, in: arena)
  }

  @inline(__always) private func model(
    _ models: UnsafeMutablePointer<LAZSymbolModel?>, _ index: UInt8
  ) -> LAZSymbolModel {
    if let model = models[Int(index)] { return model }
    let model = LAZSymbolModel(symbols: 256, in: arena)
    models[Int(index)] = model
    return model
  }

  @inline(__always) private func int32(at offset: Int) -> Int32 {
    Int32(
      littleEndian: UnsafeRawPointer(last).loadUnaligned(fromByteOffset: offset, as: Int32.self))
  }

  @inline(__always) private func store(_ value: Int32, at offset: Int) {
    UnsafeMutableRawPointer(last).storeBytes(
      of: value.littleEndian, toByteOffset: offset, as: Int32.self)
  }

  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder) {
    let changes = decoder.decodeSymbol(changed)
    var returnNumber = Int(last[14] & 7)
    var returns = Int((last[14] >> 3) & 7)
    var m = Int(LAZReturnContexts.map[returns][returnNumber])
    if changes != 0 {
      if changes & 32 != 0 {
        last[14] = UInt8(decoder.decodeSymbol(model(bitByte, last[14])))
        returnNumber = Int(last[14] & 7)
        returns = Int((last[14] >> 3) & 7)
        m = Int(LAZReturnContexts.map[returns][returnNumber])
      }
      if changes & 16 != 0 {
        let value = intensity.decompress(Int32(lastIntensity[m]), context: min(m, 3), &decoder)
        lastIntensity[m] = UInt16(truncatingIfNeeded: value)
      }
      if changes & 8 != 0 {
        last[15] = UInt8(decoder.decodeSymbol(model(classification, last[15])))
      }
      if changes & 4 != 0 {
        let step = decoder.decodeSymbol(scanAngle[Int(last[14] >> 6) & 1])
        last[16] = UInt8(truncatingIfNeeded: step &+ UInt32(last[16]))
      }
      if changes & 2 != 0 {
        last[17] = UInt8(decoder.decodeSymbol(model(userData, last[17])))
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
