/// A chunk of LASzip's point-wise compression (formats 0–5, item versions 1–2): the
/// first record raw, then every later record's items, in order, from one arithmetic
/// coded stream.
enum LAZPointwiseChunk {
  /// Whether the items can be decoded here, or why not.
  static func check(_ items: [LAZParameters.Item]) throws(LASErrorReason) {
    let order: [LAZParameters.Item.Kind] = [.point10, .gpsTime11, .rgb12, .wavePacket13, .byte]
    let ranks = items.map { order.firstIndex(of: $0.kind) ?? order.count }
    guard items.first?.kind == .point10, ranks == ranks.sorted(), Set(ranks).count == ranks.count
    else {
      throw .laz(
        "its laszip record lists items \(items.map { "\($0.kind)" }), not point10 then any of "
          + "gpstime11, rgb12, wavepacket13 and byte in that order")
    }
    for (index, item) in items.enumerated() {
      let name = "item \(index) (\(item.kind), version \(item.version))"
      switch item.kind {
      case .point10 where item.size == 20 && item.version == 2: break
      case .gpsTime11 where item.size == 8 && item.version == 2: break
      case .rgb12 where item.size == 6 && item.version == 2: break
      case .byte where item.size > 0 && item.version == 2: break
      // Version 1's codec, which writers also label 2.
      case .wavePacket13 where item.size == 29 && (item.version == 1 || item.version == 2): break
      case .point10, .gpsTime11, .rgb12, .byte, .wavePacket13:
        throw .laz("\(name) of \(item.size) bytes: only version 2 of the point-wise codecs is read")
      default:
        throw .laz("\(name) cannot be part of a point-wise compressed record")
      }
    }
  }

  /// Decodes `points` records of `recordLength` bytes from `chunk` into `records`.
  ///
  /// - Parameter length: set to the chunk's length in bytes, its end found by decoding.
  /// - Returns: nil, or the index in the chunk of the first point that could not be
  ///   decoded (the stream ran out) with what went wrong.
  static func decode(
    _ chunk: UnsafeRawBufferPointer, items: [LAZParameters.Item], points: Int,
    recordLength: Int, into records: UnsafeMutableRawPointer,
    length: UnsafeMutablePointer<Int>? = nil
  ) -> (point: Int, problem: String)? {
    guard points > 0 else { return nil }
    guard chunk.count >= recordLength, let base = chunk.baseAddress else {
      return (0, "the chunk is \(chunk.count) bytes, shorter than its first record")
    }
    records.copyMemory(from: base, byteCount: recordLength)
    let arena = LAZArena()
    let first = UnsafeRawPointer(records)
    let point10 = LAZPoint10Decoder(first: first, arena: arena)
    var offset = 20
    var gps: (decoder: LAZGPSTime11Decoder, offset: Int)?
    var color: (decoder: LAZRGB12Decoder, offset: Int)?
    var bytes: (decoder: LAZBytesDecoder, offset: Int)?
    var wave: (decoder: LAZWavePacketDecoder, offset: Int)?
    for item in items.dropFirst() {
      switch item.kind {
      case .gpsTime11: gps = (LAZGPSTime11Decoder(first: first + offset, arena: arena), offset)
      case .rgb12: color = (LAZRGB12Decoder(first: first + offset, arena: arena), offset)
      case .wavePacket13: wave = (LAZWavePacketDecoder(first: first + offset, arena: arena), offset)
      default:
        bytes = (LAZBytesDecoder(first: first + offset, count: item.size, arena: arena), offset)
      }
      offset += item.size
    }
    var decoder = LAZArithmeticDecoder(UnsafeRawBufferPointer(rebasing: chunk[recordLength...]))
    for point in 1..<points {
      let record = records + point * recordLength
      point10.decode(into: record, &decoder)
      if let gps { gps.decoder.decode(into: record + gps.offset, &decoder) }
      if let color { color.decoder.decode(into: record + color.offset, &decoder) }
      if let wave { wave.decoder.decode(into: record + wave.offset, &decoder) }
      if let bytes { bytes.decoder.decode(into: record + bytes.offset, &decoder) }
      if decoder.overrun > 0 {
        return (point, "its compressed bytes end before the point")
      }
    }
    length?.pointee = recordLength + decoder.consumed
    return nil
  }
}
