import CloudScrubCore
import Testing

@testable import CloudScrubFormats

/// The LAZ encoder is the decoder's inverse: whatever it codes, the decoder (which reads
/// lazrs's files to their exact records) reads back.
@Suite struct LAZEncoderTests {
  /// One coded value: a bit, a symbol under a model of some size, or raw bits.
  enum Coded: Equatable {
    case bit(model: Int, UInt32)
    case symbol(model: Int, UInt32)
    case bits(count: UInt32, UInt32)
    case short(UInt32)
    case int(UInt32)
  }

  static let symbolCounts = [2, 3, 5, 16, 17, 100, 256, 2048]

  @Test func theArithmeticCoderReadsBackEveryKindOfValue() {
    var random = SplitMix64(seed: 11)
    // Skewed symbols (so the models learn and the interval narrows unevenly), with
    // every symbol of every model somewhere, the last ones too.
    var coded: [Coded] = []
    for step in 0..<60_000 {
      switch step % 7 {
      case 0: coded.append(.bit(model: step % 3, random.next() % 10 == 0 ? 1 : 0))
      case 1, 2, 3:
        let model = Int(random.next() % UInt64(Self.symbolCounts.count))
        let n = UInt64(Self.symbolCounts[model])
        let symbol = random.next() % 4 == 0 ? random.next() % n : min(n - 1, random.next() % 3)
        coded.append(.symbol(model: model, UInt32(symbol)))
      case 4:
        let count = UInt32(1 + random.next() % 32)
        coded.append(.bits(count: count, UInt32(truncatingIfNeeded: random.next()) >> (32 - count)))
      case 5: coded.append(.short(UInt32(random.next() & 0xFFFF)))
      default: coded.append(.int(UInt32(truncatingIfNeeded: random.next())))
      }
    }
    for model in Self.symbolCounts.indices {
      coded.append(.symbol(model: model, UInt32(Self.symbolCounts[model] - 1)))
    }
    let encodeArena = LAZArena()
    let bitModels = (0..<3).map { _ in LAZBitModel(in: encodeArena) }
    let symbolModels = Self.symbolCounts.map { LAZSymbolModel(symbols: $0, in: encodeArena) }
    let encoder = encodeArena.encoders(1)
    for value in coded {
      switch value {
      case .bit(let model, let bit): encoder.pointee.encodeBit(bitModels[model], bit)
      case .symbol(let model, let symbol): encoder.pointee.encodeSymbol(symbolModels[model], symbol)
      case .bits(let count, let bits): encoder.pointee.writeBits(count, bits)
      case .short(let value): encoder.pointee.writeShort(value)
      case .int(let value): encoder.pointee.writeInt(value)
      }
    }
    let bytes = encoder.pointee.finish()
    let decodeArena = LAZArena()
    let bitModels2 = (0..<3).map { _ in LAZBitModel(in: decodeArena) }
    let symbolModels2 = Self.symbolCounts.map { LAZSymbolModel(symbols: $0, in: decodeArena) }
    bytes.withUnsafeBytes { buffer in
      var decoder = LAZArithmeticDecoder(buffer)
      var decoded: [Coded] = []
      for value in coded {
        switch value {
        case .bit(let model, _):
          decoded.append(.bit(model: model, decoder.decodeBit(bitModels2[model])))
        case .symbol(let model, _):
          decoded.append(.symbol(model: model, decoder.decodeSymbol(symbolModels2[model])))
        case .bits(let count, _): decoded.append(.bits(count: count, decoder.readBits(count)))
        case .short: decoded.append(.short(decoder.readShort()))
        case .int: decoded.append(.int(decoder.readInt()))
        }
      }
      #expect(Bool(decoded == coded))
      #expect(decoder.overrun == 0)
    }
  }

  @Test func theIntegerCodecWrapsAndReadsBackTheExtremes() {
    let pairs32: [(Int32, Int32)] = [
      (0, 0), (0, 1), (1, 0), (0, -1), (Int32.max, Int32.min), (Int32.min, Int32.max),
      (-5, Int32.max), (7, 7 &+ Int32.min), (1000, -1000), (0, 1 << 20), (3, 3 + (1 << 30)),
    ]
    let pairs16: [(Int32, Int32)] = [
      (0, 65535), (65535, 0), (-32768, 32767), (32767, -32768), (100, 100), (0, 40000), (-3, 5),
    ]
    var random = SplitMix64(seed: 5)
    var noisy32 = pairs32
    for _ in 0..<5000 {
      let p = Int32(truncatingIfNeeded: random.next())
      noisy32.append((p, p &+ Int32(truncatingIfNeeded: random.next() % 4001) &- 2000))
    }
    let encodeArena = LAZArena()
    let wide = LAZIntegerCodec(bits: 32, contexts: 3, in: encodeArena)
    let narrow = LAZIntegerCodec(bits: 16, contexts: 2, in: encodeArena)
    let encoder = encodeArena.encoders(1)
    for (index, pair) in noisy32.enumerated() {
      wide.compress(pair.0, pair.1, context: index % 3, &encoder.pointee)
    }
    for (index, pair) in pairs16.enumerated() {
      narrow.compress(pair.0, pair.1, context: index % 2, &encoder.pointee)
    }
    let bytes = encoder.pointee.finish()
    let decodeArena = LAZArena()
    let wide2 = LAZIntegerCodec(bits: 32, contexts: 3, in: decodeArena)
    let narrow2 = LAZIntegerCodec(bits: 16, contexts: 2, in: decodeArena)
    bytes.withUnsafeBytes { buffer in
      var decoder = LAZArithmeticDecoder(buffer)
      let got32 = noisy32.indices.map { wide2.decompress(noisy32[$0].0, context: $0 % 3, &decoder) }
      #expect(got32 == noisy32.map(\.1))
      // 16-bit values come back modulo 2^16, as unsigned.
      let got16 = pairs16.indices.map {
        narrow2.decompress(pairs16[$0].0, context: $0 % 2, &decoder)
      }
      #expect(got16 == pairs16.map { $0.1 & 0xFFFF })
      #expect(decoder.overrun == 0)
    }
  }

  /// `count` records of point format `format` (6-8) with `extra` extra bytes, every
  /// field varying the way scanners' do: coordinates in small steps with jumps, pulses
  /// of returns, GPS times that step, repeat within a pulse, interleave and jump far,
  /// colours that drift, on `channels` scanner channels.
  static func records(format: Int, extra: Int, count: Int, channels: Int, seed: UInt64)
    -> (bytes: [UInt8], length: Int)
  {
    var random = SplitMix64(seed: seed)
    func next(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    let length = [6: 30, 7: 36, 8: 38][format, default: 30] + extra
    var bytes = [UInt8](repeating: 0, count: count * length)
    var xyz = SIMD3<Int32>(1000, -2000, 300)
    var time = 4.0e8
    var returns = 1
    var number = 1
    var color = SIMD4<Int>(30000, 20000, 10000, 5000)
    var angle: Int16 = 0
    for index in 0..<count {
      let at = index * length
      func put<T: FixedWidthInteger>(_ value: T, _ offset: Int) {
        withUnsafeBytes(of: value.littleEndian) {
          bytes.replaceSubrange((at + offset)..<(at + offset + $0.count), with: $0)
        }
      }
      xyz &+= SIMD3(Int32(next(81) - 40), Int32(next(81) - 40), Int32(next(21) - 10))
      if next(100) == 0 { xyz.x &+= Int32(next(400_000)) - 200_000 }
      if next(5000) == 0 { xyz.z = Int32.min &+ Int32(next(100)) }
      put(xyz.x, 0)
      put(xyz.y, 4)
      put(xyz.z, 8)
      put(UInt16(truncatingIfNeeded: next(3) == 0 ? next(65536) : 1200 + next(50)), 12)
      if number >= returns {
        returns = next(4) == 0 ? 1 + next(15) : 1
        number = 1
        time += 1.0e-5
      } else {
        number += 1
      }
      if next(50) == 0 { (returns, number) = (next(16), next(16)) }
      bytes[at + 14] = UInt8(returns << 4 | number)
      let channel = next(10) == 0 ? next(channels) : 0
      bytes[at + 15] = UInt8(next(20) == 0 ? next(256) & 0xCF : 0) | UInt8(channel << 4)
      bytes[at + 16] = UInt8(next(10) == 0 ? next(256) : 2)
      bytes[at + 17] = UInt8(next(20) == 0 ? next(256) : 7)
      angle = angle &+ Int16(next(7) - 3)
      put(angle, 18)
      put(UInt16(next(50) == 0 ? next(65536) : 12), 20)
      if next(200) == 0 { time += Double(next(100_000)) }
      let written = next(30) == 0 ? time - 37 : time
      put(written.bitPattern, 22)
      if format >= 7 {
        color &+= SIMD4(next(1201) - 600, next(1201) - 600, next(1201) - 600, next(1001) - 500)
        color = color.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 65535))
        if next(50) == 0 { color.x = next(65536) }
        let grey = next(20) == 0
        put(UInt16(color.x), 30)
        put(UInt16(grey ? color.x : color.y), 32)
        put(UInt16(grey ? color.x : color.z), 34)
        if format == 8 { put(UInt16(color.w), 36) }
      }
      for byte in 0..<extra {
        bytes[at + length - extra + byte] = UInt8(next(3) == 0 ? next(256) : byte)
      }
    }
    return (bytes, length)
  }

  /// `records` compressed as one chunk and decoded again.
  static func roundTrip(_ records: [UInt8], length: Int, format: Int) -> (
    decoded: [UInt8], chunk: [UInt8], problem: String?
  ) {
    let items = LAZFileHeader.items(format: format, recordLength: length)
    let points = records.count / length
    let chunk = records.withUnsafeBytes { raw in
      raw.baseAddress.map {
        LAZLayeredChunk.encode($0, points: points, recordLength: length, items: items)
      } ?? []
    }
    var decoded = [UInt8](repeating: 0, count: records.count)
    let problem = chunk.withUnsafeBytes { chunkBytes in
      decoded.withUnsafeMutableBytes { raw in
        raw.baseAddress.flatMap {
          LAZLayeredChunk.decode(
            chunkBytes, items: items, points: points, recordLength: length, into: $0)
        }
      }
    }
    return (decoded, chunk, problem.map { "point \($0.point): \($0.problem)" })
  }

  @Test(arguments: [(6, 0, 1), (6, 0, 4), (7, 0, 1), (7, 3, 1), (8, 2, 1), (7, 2, 4), (8, 1, 4)])
  func aChunkDecodesToTheRecordsItWasCodedFrom(_ format: Int, _ extra: Int, _ channels: Int) {
    let (records, length) = Self.records(
      format: format, extra: extra, count: 20_000, channels: channels,
      seed: UInt64(format * 100 + extra * 10 + channels))
    let (decoded, chunk, problem) = Self.roundTrip(records, length: length, format: format)
    #expect(problem == nil)
    if let first = records.indices.first(where: { records[$0] != decoded[$0] }) {
      Issue.record("record \(first / length) differs first at byte \(first % length)")
    }
    // Scanners' records compress to well under half.
    #expect(chunk.count < records.count / 2)
  }

  @Test func fieldsThatNeverChangeLeaveTheirLayersEmpty() throws {
    // Format 7 as the export writes it: return 1 of 1, no intensity, class, angle,
    // source or time; only the coordinates and the colour vary.
    let length = 36
    let points = 1000
    var records = [UInt8](repeating: 0, count: points * length)
    for index in 0..<points {
      let at = index * length
      let values = [Int32(index * 3), Int32(-index), Int32(index % 17)]
      for (axis, value) in values.enumerated() {
        withUnsafeBytes(of: value.littleEndian) {
          records.replaceSubrange((at + 4 * axis)..<(at + 4 * axis + 4), with: $0)
        }
      }
      records[at + 14] = 0x11
      records[at + 30] = UInt8(index % 251)
    }
    let (decoded, chunk, problem) = Self.roundTrip(records, length: length, format: 7)
    #expect(problem == nil)
    #expect(Bool(decoded == records))
    // The layer sizes follow the first record and the point count: nine for point14,
    // one for the colour.
    let sizes = (0..<10).map { layer in
      chunk.withUnsafeBytes {
        Int($0.loadUnaligned(fromByteOffset: length + 4 + 4 * layer, as: UInt32.self))
      }
    }
    #expect(sizes[0] > 0 && sizes[1] > 0 && sizes[9] > 0)
    #expect(sizes[2..<9].allSatisfy { $0 == 0 })
    let count = chunk.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: length, as: UInt32.self) }
    #expect(count == UInt32(points))
  }

  @Test func aChunkOfOnePointIsItsRecordAndEmptyLayers() {
    let (records, length) = Self.records(format: 7, extra: 1, count: 1, channels: 1, seed: 3)
    let (decoded, chunk, problem) = Self.roundTrip(records, length: length, format: 7)
    #expect(problem == nil)
    #expect(Bool(decoded == records))
    #expect(chunk.count == length + 4 + 4 * 11)
    #expect(chunk[(length + 4)...].allSatisfy { $0 == 0 })
  }
}
