/// An item after `point14` in a layered record, coded into its own layers with models
/// kept per item context, as `LAZLayeredItemDecoder` reads it back.
protocol LAZLayeredItemEncoder: AnyObject {
  func encode(_ item: UnsafeRawPointer, context: Int)
  /// The item's layers: empty for one whose bytes never change in the chunk.
  func finish() -> [[UInt8]]
}

/// Codes `rgb14` (and `rgbnir14`, with the near-infrared channel in a second layer).
final class LAZRGB14Encoder: LAZLayeredItemEncoder {
  private var channels: LAZChannels<LAZRGB14State>
  /// The colour layer's encoder, then the NIR layer's.
  private let layers: UnsafeMutablePointer<LAZArithmeticEncoder>
  private let nir: Bool
  private let firstColor: LAZColor
  private let firstNIR: UInt16
  private var colorVaries = false
  private var nirVaries = false

  init(first: UnsafeRawPointer, nir: Bool, channel: Int, arena: LAZArena) {
    self.nir = nir
    layers = arena.encoders(2)
    firstColor = LAZColor(record: first)
    firstNIR = nir ? Self.nir(first) : 0
    channels = LAZChannels(
      first: LAZRGB14State(color: firstColor, nir: firstNIR, arena: arena), channel: channel,
      version: 3
    ) { LAZRGB14State(color: $0.color, nir: $0.nir, arena: arena) }
  }

  private static func nir(_ item: UnsafeRawPointer) -> UInt16 {
    UInt16(littleEndian: item.loadUnaligned(fromByteOffset: 6, as: UInt16.self))
  }

  func encode(_ item: UnsafeRawPointer, context: Int) {
    let (models, last) = channels.state(context)
    let color = LAZColor(record: item)
    models.colorModels.encode(color, after: last.color, &layers[0])
    colorVaries =
      colorVaries || color.red != firstColor.red || color.green != firstColor.green
      || color.blue != firstColor.blue
    last.color = color
    guard nir else { return }
    let value = Self.nir(item)
    let low = UInt32(value & 0xFF)
    let high = UInt32(value >> 8)
    let lastLow = UInt32(last.nir & 0xFF)
    let lastHigh = UInt32(last.nir >> 8)
    let changed = (low != lastLow ? 1 : 0) | (high != lastHigh ? 2 : 0)
    layers[1].encodeSymbol(models.nirChanged, UInt32(changed))
    if changed & 1 != 0 { layers[1].encodeSymbol(models.nirBytes[0], (low &- lastLow) & 0xFF) }
    if changed & 2 != 0 { layers[1].encodeSymbol(models.nirBytes[1], (high &- lastHigh) & 0xFF) }
    nirVaries = nirVaries || value != firstNIR
    last.nir = value
  }

  func finish() -> [[UInt8]] {
    let color = colorVaries ? layers[0].finish() : []
    guard nir else { return [color] }
    return [color, nirVaries ? layers[1].finish() : []]
  }
}

/// Codes `byte14`: each extra byte in its own layer, as a step from its last value.
final class LAZBytes14Encoder: LAZLayeredItemEncoder {
  private var channels: LAZChannels<LAZBytes14State>
  private let layers: UnsafeMutablePointer<LAZArithmeticEncoder>
  private let first: [UInt8]
  private let varies: UnsafeMutablePointer<Bool>

  init(first item: UnsafeRawPointer, count: Int, channel: Int, arena: LAZArena) {
    first = (0..<count).map { item.load(fromByteOffset: $0, as: UInt8.self) }
    layers = arena.encoders(count)
    varies = arena.buffer(count, false)
    channels = LAZChannels(
      first: LAZBytes14State(bytes: first, arena: arena), channel: channel, version: 3
    ) {
      LAZBytes14State(bytes: $0.bytes, arena: arena)
    }
  }

  func encode(_ item: UnsafeRawPointer, context: Int) {
    let (models, last) = channels.state(context)
    for index in 0..<first.count {
      let value = item.load(fromByteOffset: index, as: UInt8.self)
      layers[index].encodeSymbol(models.models[index], UInt32(value &- last.bytes[index]))
      if value != first[index] { varies[index] = true }
      last.bytes[index] = value
    }
  }

  func finish() -> [[UInt8]] {
    (0..<first.count).map { varies[$0] ? layers[$0].finish() : [] }
  }
}

extension LAZLayeredChunk {
  /// Compresses `points` records of `recordLength` bytes at `records` into one layered
  /// chunk (the inverse of `decode`): the first record raw, the point count, every
  /// layer's size, then the layers.
  ///
  /// `items` must pass `check` and hold `point14` first, then `rgb14`, `rgbnir14` or
  /// `byte14` items.
  static func encode(
    _ records: UnsafeRawPointer, points: Int, recordLength: Int, items: [LAZParameters.Item]
  ) -> [UInt8] {
    precondition(points > 0 && items.first?.kind == .point14)
    let arena = LAZArena()
    let point14 = LAZPoint14Encoder(first: records, arena: arena)
    var others: [(offset: Int, encoder: any LAZLayeredItemEncoder)] = []
    var offset = items[0].size
    for item in items.dropFirst() {
      let channel = point14.firstChannel
      let encoder: any LAZLayeredItemEncoder
      switch item.kind {
      case .rgb14, .rgbNIR14:
        encoder = LAZRGB14Encoder(
          first: records + offset, nir: item.kind == .rgbNIR14, channel: channel, arena: arena)
      case .byte14:
        encoder = LAZBytes14Encoder(
          first: records + offset, count: item.size, channel: channel, arena: arena)
      default: preconditionFailure("\(item.kind) is not written")
      }
      others.append((offset, encoder))
      offset += item.size
    }
    for point in 1..<max(points, 1) {
      let record = records + point * recordLength
      let context = point14.encode(record)
      for item in others { item.encoder.encode(record + item.offset, context: context) }
    }
    let layers = point14.finish() + others.flatMap { $0.encoder.finish() }
    var chunk = [UInt8](UnsafeRawBufferPointer(start: records, count: recordLength))
    chunk.reserveCapacity(recordLength + 4 + 4 * layers.count + layers.reduce(0) { $0 + $1.count })
    chunk.appendLittleEndian(UInt32(points))
    for layer in layers { chunk.appendLittleEndian(UInt32(layer.count)) }
    for layer in layers { chunk += layer }
    return chunk
  }
}
