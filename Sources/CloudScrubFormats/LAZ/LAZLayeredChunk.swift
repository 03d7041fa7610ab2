/// A chunk of LASzip's layered compression (LAS 1.4 formats 6–10, item version 3): the
/// first record raw, the chunk's point count, every layer's size, then the layers, each
/// field group coded in its own stream so a reader can skip what it does not need.
enum LAZLayeredChunk {
  /// How many layers an item has.
  static func layers(of item: LAZParameters.Item) -> Int {
    switch item.kind {
    case .point14: return LAZPoint14Layer.count
    case .rgbNIR14: return 2
    case .byte14: return item.size
    default: return 1
    }
  }

  /// Whether the items can be decoded here, or why not.
  static func check(_ items: [LAZParameters.Item]) throws(LASErrorReason) {
    for (index, item) in items.enumerated() {
      let name = "item \(index) (\(item.kind), version \(item.version))"
      let sizes: [LAZParameters.Item.Kind: Int] = [
        .point14: 30, .rgb14: 6, .rgbNIR14: 8, .wavePacket14: 29,
      ]
      // Version 4 codes as version 3 but for the items' context (`LAZChannels`).
      guard item.version == 3 || item.version == 4 else {
        throw .laz("\(name): only versions 3 and 4 of the layered codecs are read")
      }
      switch item.kind {
      case .point14 where index == 0, .rgb14, .rgbNIR14, .wavePacket14:
        guard sizes[item.kind] == item.size else { throw .laz("\(name) of \(item.size) bytes") }
      case .byte14 where item.size > 0: break
      default: throw .laz("\(name) cannot be part of a layered record")
      }
    }
  }

  /// Decodes `points` records of `recordLength` bytes from `chunk` into `records`.
  ///
  /// - Returns: nil, or the index in the chunk of the first point that could not be
  ///   decoded with what went wrong.
  static func decode(
    _ chunk: UnsafeRawBufferPointer, items: [LAZParameters.Item], points: Int,
    recordLength: Int, into records: UnsafeMutableRawPointer
  ) -> (point: Int, problem: String)? {
    guard points > 0 else { return nil }
    let layerCount = items.reduce(0) { $0 + layers(of: $1) }
    let headerBytes = recordLength + 4 + 4 * layerCount
    guard chunk.count >= headerBytes, let base = chunk.baseAddress else {
      return (0, "the chunk is \(chunk.count) bytes, shorter than its first record and layer sizes")
    }
    records.copyMemory(from: base, byteCount: recordLength)
    var sizes: [Int] = []
    for index in 0..<layerCount {
      sizes.append(
        Int(
          UInt32(
            littleEndian: chunk.loadUnaligned(
              fromByteOffset: recordLength + 4 + 4 * index, as: UInt32.self))))
    }
    let total = sizes.reduce(0, +)
    guard total <= chunk.count - headerBytes else {
      return (
        0,
        "its layers' sizes add up to \(total) bytes, the chunk holds \(chunk.count - headerBytes)"
      )
    }
    var layerBytes: [UnsafeRawBufferPointer] = []
    var at = headerBytes
    for size in sizes {
      layerBytes.append(UnsafeRawBufferPointer(rebasing: chunk[at..<(at + size)]))
      at += size
    }
    let first = UnsafeRawPointer(records)
    let arena = LAZArena()
    let point14 = LAZPoint14Decoder(
      first: first, layers: Array(layerBytes[0..<LAZPoint14Layer.count]), arena: arena)
    var others: [(offset: Int, decoder: any LAZLayeredItemDecoder)] = []
    var offset = items[0].size
    var layer = LAZPoint14Layer.count
    for item in items.dropFirst() {
      let count = layers(of: item)
      let mine = Array(layerBytes[layer..<(layer + count)])
      let channel = point14.firstChannel
      let decoder: any LAZLayeredItemDecoder
      switch item.kind {
      case .rgb14, .rgbNIR14:
        decoder = LAZRGB14Decoder(
          first: first + offset, layers: mine, channel: channel, version: item.version,
          arena: arena)
      case .byte14:
        decoder = LAZBytes14Decoder(
          first: first + offset, layers: mine, channel: channel, version: item.version,
          arena: arena)
      default:
        decoder = LAZWavePacket14Decoder(
          first: first + offset, layers: mine, channel: channel, version: item.version,
          arena: arena)
      }
      others.append((offset, decoder))
      offset += item.size
      layer += count
    }
    // Version 4 hands the items the point's channel on every point.
    let alwaysChannel = items[0].version >= 4
    for point in 1..<points {
      let record = records + point * recordLength
      var context = 0
      point14.decode(into: record, context: &context, always: alwaysChannel)
      for item in others { item.decoder.decode(into: record + item.offset, context: context) }
      if point14.overrun > 0 || others.contains(where: { $0.decoder.overrun > 0 }) {
        return (point, "its compressed layers end before the point")
      }
    }
    return nil
  }
}
