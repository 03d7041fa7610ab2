/// An item after `point14` in a layered record: it decodes from its own layers, with
/// models and last values kept per *item context*. In item version 3 the context is the
/// point's scanner channel only on the chunk's first point and on a point that switches
/// channel; on every other point it is 0, whichever channel the point is on (so a chunk
/// that stays on channel 2 codes its colours in context 0 after its first point). In
/// version 4 it is always the point's channel.
protocol LAZLayeredItemDecoder: AnyObject {
  func decode(into item: UnsafeMutableRawPointer, context: Int)
  /// Bytes the item's layers read past their ends.
  var overrun: Int { get }
}

/// Per-context state of a layered item: created on a context's first point, from a
/// copy of the last values of the context before it.
///
/// Which last values a point is predicted from follows LASzip: in item version 3, on a
/// change to a context seen before, the point is predicted from (and updates) the last
/// values of the context before it, under the new context's models; in version 4 from
/// the new context's own.
struct LAZChannels<State: AnyObject> {
  private var states: [State?] = [nil, nil, nil, nil]
  private var current: State
  private var currentChannel: Int
  private let make: (State) -> State
  /// Version 4: a context seen before predicts from its own last values.
  private let ownLastValues: Bool

  init(first: State, channel: Int, version: Int, make: @escaping (State) -> State) {
    current = first
    currentChannel = channel
    states[channel] = first
    ownLastValues = version >= 4
    self.make = make
  }

  /// The models of `context`, and the state whose last values predict the point.
  mutating func state(_ channel: Int) -> (models: State, last: State) {
    var last = current
    if channel != currentChannel {
      if let known = states[channel] {
        current = known
        if ownLastValues { last = known }
      } else {
        current = make(current)
        states[channel] = current
        last = current
      }
      currentChannel = channel
    }
    return (current, last)
  }
}

/// One channel's colour models and last values, for `rgb14` and `rgbnir14`.
final class LAZRGB14State {
  var color: LAZColor
  var nir: UInt16
  let colorModels: LAZColorPrediction
  let nirChanged: LAZSymbolModel
  let nirBytes: UnsafeMutablePointer<LAZSymbolModel>

  init(color: LAZColor, nir: UInt16, arena: LAZArena) {
    self.color = color
    self.nir = nir
    colorModels = LAZColorPrediction(arena: arena)
    nirChanged = LAZSymbolModel(symbols: 4, in: arena)
    nirBytes = arena.models(2, symbols: 256)
  }
}

/// One channel's extra-byte models and last values, for `byte14`.
final class LAZBytes14State {
  var bytes: [UInt8]
  let models: UnsafeMutablePointer<LAZSymbolModel>

  init(bytes: [UInt8], arena: LAZArena) {
    self.bytes = bytes
    models = arena.models(bytes.count, symbols: 256)
  }
}

/// The `rgb14` item (formats 7 and 8's colour) and `rgbnir14` (format 8's, with the
/// near-infrared channel in a second layer), version 3.
final class LAZRGB14Decoder: LAZLayeredItemDecoder {
  private var channels: LAZChannels<LAZRGB14State>
  private var colorLayer: LAZLayer
  private var nirLayer: LAZLayer?

  /// `layers`: the colour layer, and the NIR layer for `rgbnir14`.
  init(
    first: UnsafeRawPointer, layers: [UnsafeRawBufferPointer], channel: Int, version: Int,
    arena: LAZArena
  ) {
    func load(_ index: Int) -> UInt16 {
      UInt16(littleEndian: first.loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self))
    }
    let state = LAZRGB14State(
      color: LAZColor(record: first), nir: layers.count > 1 ? load(3) : 0, arena: arena)
    channels = LAZChannels(first: state, channel: channel, version: version) {
      LAZRGB14State(color: $0.color, nir: $0.nir, arena: arena)
    }
    colorLayer = LAZLayer(layers[0])
    nirLayer = layers.count > 1 ? LAZLayer(layers[1]) : nil
  }

  var overrun: Int { colorLayer.overrun + (nirLayer?.overrun ?? 0) }

  func decode(into item: UnsafeMutableRawPointer, context: Int) {
    let (models, last) = channels.state(context)
    if colorLayer.present {
      last.color = models.colorModels.decode(after: last.color, &colorLayer.decoder)
    }
    last.color.store(item)
    if var layer = nirLayer {
      if layer.present {
        let changed = layer.decoder.decodeSymbol(models.nirChanged)
        var low = UInt32(last.nir & 0xFF)
        var high = UInt32(last.nir >> 8)
        if changed & 1 != 0 { low = (low + layer.decoder.decodeSymbol(models.nirBytes[0])) & 0xFF }
        if changed & 2 != 0 {
          high = (high + layer.decoder.decodeSymbol(models.nirBytes[1])) & 0xFF
        }
        last.nir = UInt16(high << 8 | low)
        nirLayer = layer
      }
      item.storeBytes(of: last.nir.littleEndian, toByteOffset: 6, as: UInt16.self)
    }
  }
}

/// The `byte14` item, version 3: each extra byte in its own layer.
final class LAZBytes14Decoder: LAZLayeredItemDecoder {
  private var channels: LAZChannels<LAZBytes14State>
  private var layers: [LAZLayer]

  init(
    first: UnsafeRawPointer, layers: [UnsafeRawBufferPointer], channel: Int, version: Int,
    arena: LAZArena
  ) {
    let bytes = (0..<layers.count).map { first.load(fromByteOffset: $0, as: UInt8.self) }
    channels = LAZChannels(
      first: LAZBytes14State(bytes: bytes, arena: arena), channel: channel, version: version
    ) {
      LAZBytes14State(bytes: $0.bytes, arena: arena)
    }
    self.layers = layers.map(LAZLayer.init)
  }

  var overrun: Int { layers.reduce(0) { $0 + $1.overrun } }

  func decode(into item: UnsafeMutableRawPointer, context: Int) {
    let (models, last) = channels.state(context)
    for index in 0..<layers.count {
      if layers[index].present {
        last.bytes[index] &+= UInt8(layers[index].decoder.decodeSymbol(models.models[index]))
      }
      item.storeBytes(of: last.bytes[index], toByteOffset: index, as: UInt8.self)
    }
  }
}

/// The `wavepacket14` item (formats 9 and 10): `wavepacket13`'s coding in a layer of
/// its own, with models and last values per item context. With no layer, every record
/// keeps the chunk's first record's packet description.
final class LAZWavePacket14Decoder: LAZLayeredItemDecoder {
  private var channels: LAZChannels<LAZWavePacketDecoder>
  private var layer: LAZLayer

  init(
    first: UnsafeRawPointer, layers: [UnsafeRawBufferPointer], channel: Int, version: Int,
    arena: LAZArena
  ) {
    channels = LAZChannels(
      first: LAZWavePacketDecoder(first: first, arena: arena), channel: channel,
      version: version
    ) { LAZWavePacketDecoder(first: UnsafeRawPointer($0.last), arena: arena) }
    layer = LAZLayer(layers[0])
  }

  var overrun: Int { layer.overrun }

  func decode(into item: UnsafeMutableRawPointer, context: Int) {
    let (models, last) = channels.state(context)
    if layer.present {
      models.decode(into: item, last: last.last, &layer.decoder)
    } else {
      item.copyMemory(from: last.last, byteCount: 29)
    }
  }
}
