/// The `point14` item, version 3 (LAS formats 6–10): nine layers, each its own coded
/// stream, with models kept per scanner channel. It hands the items after it their
/// context (see `LAZLayeredItemDecoder`).
final class LAZPoint14Decoder {
  /// The layers, with their decoders, in the chunk's arena.
  private let layers: UnsafeMutablePointer<LAZLayer>
  private var contexts: [LAZPoint14Context?] = [nil, nil, nil, nil]
  private var current: Int

  private let arena: LAZArena

  init(first: UnsafeRawPointer, layers: [UnsafeRawBufferPointer], arena: LAZArena) {
    self.layers = arena.buffer(layers.count, LAZLayer(UnsafeRawBufferPointer(start: nil, count: 0)))
    for (index, bytes) in layers.enumerated() { self.layers[index] = LAZLayer(bytes) }
    self.arena = arena
    let item = LAZPoint14Fields(record: first)
    current = Int(item.scannerChannel)
    contexts[current] = LAZPoint14Context(from: item, arena: arena)
  }

  /// The scanner channel of the chunk's first point.
  var firstChannel: Int { current }

  /// Bytes the layers read past their ends; the first layer must be there.
  var overrun: Int {
    (0..<LAZPoint14Layer.count).reduce(layers[0].present ? 0 : 1) { $0 + layers[$1].overrun }
  }

  @inline(__always) private func symbol(_ layer: LAZPoint14Layer, _ model: LAZSymbolModel) -> UInt32
  {
    layers[layer.rawValue].decoder.decodeSymbol(model)
  }

  @inline(__always) private func has(_ layer: LAZPoint14Layer) -> Bool {
    layers[layer.rawValue].present
  }

  /// Decodes the next record into `item`. `context` is set to the point's channel when
  /// the point switches channel, or `always`, and left as it is otherwise: the items
  /// after `point14` take their per-channel state from it (`LAZLayeredItemDecoder`).
  func decode(
    into item: UnsafeMutableRawPointer, context itemContext: inout Int, always: Bool = false
  ) {
    guard var context = contexts[current] else { return }
    let lpr =
      (context.last.pointee.returnNumber == 1 ? 1 : 0)
      + (context.last.pointee.returnNumber >= context.last.pointee.returns ? 2 : 0)
      + (context.last.pointee.gpsTimeChanged ? 4 : 0)
    let changes = symbol(.channelReturnsXY, context.changed[lpr])
    if changes & 64 != 0 {
      let step = symbol(.channelReturnsXY, context.scannerChannel)
      let next = (current + Int(step) + 1) % 4
      let nextContext =
        contexts[next] ?? LAZPoint14Context(from: context.last.pointee, arena: arena)
      contexts[next] = nextContext
      current = next
      context = nextContext
      context.last.pointee.scannerChannel = UInt32(next)
      itemContext = next
    }
    let sourceChanged = changes & 32 != 0
    let timeChanged = changes & 16 != 0
    let angleChanged = changes & 8 != 0
    if changes & 4 != 0 {
      let model = context.model(
        context.returnsModels, Int(context.last.pointee.returns), symbols: 16)
      context.last.pointee.returns = symbol(.channelReturnsXY, model)
    }
    let n = context.last.pointee.returns
    let lastR = context.last.pointee.returnNumber
    switch changes & 3 {
    case 1: context.last.pointee.returnNumber = (lastR + 1) % 16
    case 2: context.last.pointee.returnNumber = (lastR + 15) % 16
    case 3:
      if timeChanged {
        let model = context.model(context.returnNumberModels, Int(lastR), symbols: 16)
        context.last.pointee.returnNumber = symbol(.channelReturnsXY, model)
      } else {
        let step = symbol(.channelReturnsXY, context.returnNumberSameTime)
        context.last.pointee.returnNumber = (lastR + step + 2) % 16
      }
    default: break
    }
    let r = context.last.pointee.returnNumber
    let c = LAZPoint14Contexts(returns: n, number: r, timeChanged: timeChanged)
    let xy = LAZPoint14Layer.channelReturnsXY.rawValue
    let dx = context.dx.decompress(
      context.xMedians[c.median].median, context: c.single, &layers[xy].decoder)
    context.last.pointee.x &+= dx
    context.xMedians[c.median].add(dx)
    var kBits = context.dx.k
    let dy = context.dy.decompress(
      context.yMedians[c.median].median,
      context: c.single + Int(kBits < 20 ? kBits & ~1 : 20), &layers[xy].decoder)
    context.last.pointee.y &+= dy
    context.yMedians[c.median].add(dy)
    if has(.z) {
      kBits = (context.dx.k + context.dy.k) / 2
      context.last.pointee.z = context.z.decompress(
        context.lastZ[c.level], context: c.single + Int(kBits < 18 ? kBits & ~1 : 18),
        &layers[LAZPoint14Layer.z.rawValue].decoder)
      context.lastZ[c.level] = context.last.pointee.z
    }
    if has(.classification) {
      let index = Int(context.last.pointee.classification & 0x1F) << 1 + (c.firstLast == 3 ? 1 : 0)
      let model = context.model(context.classificationModels, index, symbols: 256)
      context.last.pointee.classification = UInt8(symbol(.classification, model))
    }
    if has(.flags) {
      let index = Int(
        context.last.pointee.edgeOfFlightLine << 5 | context.last.pointee.scanDirection << 4
          | context.last.pointee.classificationFlags)
      let flags = symbol(.flags, context.model(context.flagModels, index, symbols: 64))
      context.last.pointee.edgeOfFlightLine = (flags >> 5) & 1
      context.last.pointee.scanDirection = (flags >> 4) & 1
      context.last.pointee.classificationFlags = flags & 15
    }
    if has(.intensity) {
      let index = c.firstLast << 1 | c.time
      let value = context.intensity.decompress(
        Int32(context.lastIntensity[index]), context: c.firstLast,
        &layers[LAZPoint14Layer.intensity.rawValue].decoder)
      context.lastIntensity[index] = UInt16(truncatingIfNeeded: value)
      context.last.pointee.intensity = context.lastIntensity[index]
    }
    if angleChanged, has(.scanAngle) {
      let value = context.scanAngle.decompress(
        Int32(context.last.pointee.scanAngle), context: c.time,
        &layers[LAZPoint14Layer.scanAngle.rawValue].decoder)
      context.last.pointee.scanAngle = Int16(truncatingIfNeeded: value)
    }
    if has(.userData) {
      let index = Int(context.last.pointee.userData / 4)
      let model = context.model(context.userDataModels, index, symbols: 256)
      context.last.pointee.userData = UInt8(symbol(.userData, model))
    }
    if sourceChanged, has(.pointSource) {
      let value = context.pointSource.decompress(
        Int32(context.last.pointee.pointSource),
        &layers[LAZPoint14Layer.pointSource.rawValue].decoder)
      context.last.pointee.pointSource = UInt16(truncatingIfNeeded: value)
    }
    if timeChanged, has(.gpsTime) {
      context.gps.decode(&layers[LAZPoint14Layer.gpsTime.rawValue].decoder)
      context.last.pointee.gpsTime = context.gps.current
    }
    context.last.pointee.store(item)
    context.last.pointee.gpsTimeChanged = timeChanged
    if always { itemContext = current }
  }
}
