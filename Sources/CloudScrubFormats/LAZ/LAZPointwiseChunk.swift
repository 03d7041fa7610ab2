/// A chunk of LASzip's point-wise compression (formats 0–5, item versions 1–2): the
/// first record raw, then every later record's items, in order, from one arithmetic
/// coded stream.
enum LAZPointwiseChunk {
  /// Whether the items can be decoded here, or why not.
  static func check(_ items: [LAZParameters.Item]) throws(LASErrorReason) {
    for (index, item) in items.enumerated() {
      let name = "item \(index) (\(item.kind), version \(item.version))"
      switch item.kind {
      case .point10 where item.size == 20 && item.version == 2: break
      case .gpsTime11 where item.size == 8 && item.version == 2: break
      case .rgb12 where item.size == 6 && item.version == 2: break
      case .byte where item.size > 0 && item.version == 2: break
      case .point10, .gpsTime11, .rgb12, .byte:
        throw .laz("\(name) of \(item.size) bytes: only version 2 of the point-wise codecs is read")
      default:
        throw .laz("\(name) cannot be part of a point-wise compressed record")
      }
    }
  }

  /// Decodes `points` records of `recordLength` bytes from `chunk` into `records`.
  ///
  /// - Returns: nil, or the index in the chunk of the first point that could not be
  ///   decoded (the stream ran out) with what went wrong.
  static func decode(
    _ chunk: UnsafeRawBufferPointer, items: [LAZParameters.Item], points: Int,
    recordLength: Int, into records: UnsafeMutableRawPointer
  ) -> (point: Int, problem: String)? {
    guard points > 0 else { return nil }
    guard chunk.count >= recordLength, let base = chunk.baseAddress else {
      return (0, "the chunk is \(chunk.count) bytes, shorter than its first record")
    }
    records.copyMemory(from: base, byteCount: recordLength)
    var offsets: [Int] = []
    var decoders: [any LAZItemDecoder] = []
    var offset = 0
    for item in items {
      let first = UnsafeRawPointer(records + offset)
      switch item.kind {
      case .point10: decoders.append(LAZPoint10Decoder(first: first))
      case .gpsTime11: decoders.append(LAZGPSTime11Decoder(first: first))
      case .rgb12: decoders.append(LAZRGB12Decoder(first: first))
      default: decoders.append(LAZBytesDecoder(first: first, count: item.size))
      }
      offsets.append(offset)
      offset += item.size
    }
    var decoder = LAZArithmeticDecoder(UnsafeRawBufferPointer(rebasing: chunk[recordLength...]))
    for point in 1..<points {
      let record = records + point * recordLength
      for (index, item) in decoders.enumerated() {
        item.decode(into: record + offsets[index], &decoder)
      }
      if decoder.overrun > 0 {
        return (point, "its compressed bytes end before the point")
      }
    }
    return nil
  }
}
