/// Codes `point14` records (version 3) into the nine layers `LAZPoint14Decoder` reads:
/// every step mirrors the decoder's, under the same models in the same contexts. A layer
/// whose field keeps the chunk's first value throughout is left empty, which tells the
/// decoder to keep that value.
final class LAZPoint14Encoder {
  /// The layers' encoders and whether each layer's field ever differs from the first
  /// record's, in the chunk's arena.
  private let layers: UnsafeMutablePointer<LAZArithmeticEncoder>
  private let varies: UnsafeMutablePointer<Bool>
  private let first: LAZPoint14Fields
  private var contexts: [LAZPoint14Context?] = [nil, nil, nil, nil]
  private var current: Int
  private let arena: LAZArena

  init(first record: UnsafeRawPointer, arena: LAZArena) {
    first = LAZPoint14Fields(record: record)
    self.arena = arena
    layers = arena.encoders(LAZPoint14Layer.count)
    varies = arena.buffer(LAZPoint14Layer.count, false)
    current = Int(first.scannerChannel)
    contexts[current] = LAZPoint14Context(from: first, arena: arena)
  }

  /// The scanner channel of the chunk's first point.
  var firstChannel: Int { Int(first.scannerChannel) }

  @inline(__always) private func symbol(
    _ layer: LAZPoint14Layer, _ model: LAZSymbolModel, _ value: UInt32
  ) {
    layers[layer.rawValue].encodeSymbol(model, value)
  }

  /// The return number's change from `last` to `r`: 0 none, 1 up one, 2 down one, 3 other.
  private static func returnChange(_ r: UInt32, from last: UInt32) -> UInt32 {
    if r == last { return 0 }
    if r == (last + 1) % 16 { return 1 }
    return r == (last + 15) % 16 ? 2 : 3
  }

  /// Codes the record at `record`; returns the context the items after `point14` code
  /// it in: its channel when it switches channel, 0 otherwise (as LASzip hands it on).
  func encode(_ record: UnsafeRawPointer) -> Int {
    let item = LAZPoint14Fields(record: record)
    guard var context = contexts[current] else { return 0 }
    let previous = context.last.pointee
    let lpr =
      (previous.returnNumber == 1 ? 1 : 0) + (previous.returnNumber >= previous.returns ? 2 : 0)
      + (previous.gpsTimeChanged ? 4 : 0)
    let channel = Int(item.scannerChannel)
    let changeModel = context.changed[lpr]
    let channelModel = context.scannerChannel
    if channel != current {
      // The decoder switches before it applies the changes, so they are measured
      // against the last values of the channel it switches to.
      let next = contexts[channel] ?? LAZPoint14Context(from: previous, arena: arena)
      contexts[channel] = next
      next.last.pointee.scannerChannel = UInt32(channel)
      context = next
    }
    let last = context.last.pointee
    let sourceChanged = item.pointSource != last.pointSource
    let timeChanged = item.gpsTime != last.gpsTime
    let angleChanged = item.scanAngle != last.scanAngle
    var changes = Self.returnChange(item.returnNumber, from: last.returnNumber)
    changes |= (channel != current ? 64 : 0) | (sourceChanged ? 32 : 0) | (timeChanged ? 16 : 0)
    changes |= (angleChanged ? 8 : 0) | (item.returns != last.returns ? 4 : 0)
    symbol(.channelReturnsXY, changeModel, changes)
    let switched = channel != current
    if switched {
      symbol(.channelReturnsXY, channelModel, UInt32((channel - current + 3) % 4))
      current = channel
    }
    if changes & 4 != 0 {
      let model = context.model(context.returnsModels, Int(last.returns), symbols: 16)
      symbol(.channelReturnsXY, model, item.returns)
    }
    if changes & 3 == 3 {
      if timeChanged {
        let model = context.model(context.returnNumberModels, Int(last.returnNumber), symbols: 16)
        symbol(.channelReturnsXY, model, item.returnNumber)
      } else {
        let step = (item.returnNumber + 32 - last.returnNumber - 2) % 16
        symbol(.channelReturnsXY, context.returnNumberSameTime, step)
      }
    }
    let n = item.returns
    let r = item.returnNumber
    let c = LAZPoint14Contexts(returns: n, number: r, timeChanged: timeChanged)
    let xy = LAZPoint14Layer.channelReturnsXY.rawValue
    let dx = item.x &- last.x
    context.dx.compress(
      context.xMedians[c.median].median, dx, context: c.single, &layers[xy])
    context.xMedians[c.median].add(dx)
    var kBits = context.dx.k
    let dy = item.y &- last.y
    context.dy.compress(
      context.yMedians[c.median].median, dy,
      context: c.single + Int(kBits < 20 ? kBits & ~1 : 20), &layers[xy])
    context.yMedians[c.median].add(dy)
    kBits = (context.dx.k + context.dy.k) / 2
    context.z.compress(
      context.lastZ[c.level], item.z, context: c.single + Int(kBits < 18 ? kBits & ~1 : 18),
      &layers[LAZPoint14Layer.z.rawValue])
    context.lastZ[c.level] = item.z
    let classIndex = Int(last.classification & 0x1F) << 1 + (c.firstLast == 3 ? 1 : 0)
    let classModel = context.model(context.classificationModels, classIndex, symbols: 256)
    symbol(.classification, classModel, UInt32(item.classification))
    let flagIndex = Int(
      last.edgeOfFlightLine << 5 | last.scanDirection << 4 | last.classificationFlags)
    let flags = item.edgeOfFlightLine << 5 | item.scanDirection << 4 | item.classificationFlags
    symbol(.flags, context.model(context.flagModels, flagIndex, symbols: 64), flags)
    let intensityIndex = c.firstLast << 1 | c.time
    context.intensity.compress(
      Int32(context.lastIntensity[intensityIndex]), Int32(item.intensity), context: c.firstLast,
      &layers[LAZPoint14Layer.intensity.rawValue])
    context.lastIntensity[intensityIndex] = item.intensity
    if angleChanged {
      context.scanAngle.compress(
        Int32(last.scanAngle), Int32(item.scanAngle), context: c.time,
        &layers[LAZPoint14Layer.scanAngle.rawValue])
    }
    let userModel = context.model(context.userDataModels, Int(last.userData / 4), symbols: 256)
    symbol(.userData, userModel, UInt32(item.userData))
    if sourceChanged {
      context.pointSource.compress(
        Int32(last.pointSource), Int32(item.pointSource),
        &layers[LAZPoint14Layer.pointSource.rawValue])
    }
    if timeChanged { context.gps.encode(item.gpsTime, &layers[LAZPoint14Layer.gpsTime.rawValue]) }
    noteVariation(item)
    context.last.pointee = item
    context.last.pointee.gpsTimeChanged = timeChanged
    return switched ? channel : 0
  }

  /// Marks the layers whose field differs from the first record's.
  private func noteVariation(_ item: LAZPoint14Fields) {
    func note(_ layer: LAZPoint14Layer, _ differs: Bool) {
      if differs { varies[layer.rawValue] = true }
    }
    note(.z, item.z != first.z)
    note(.classification, item.classification != first.classification)
    note(
      .flags,
      item.edgeOfFlightLine != first.edgeOfFlightLine || item.scanDirection != first.scanDirection
        || item.classificationFlags != first.classificationFlags)
    note(.intensity, item.intensity != first.intensity)
    note(.userData, item.userData != first.userData)
  }

  /// Every layer's bytes, in order: empty for a layer the decoder need not read.
  func finish() -> [[UInt8]] {
    LAZPoint14Layer.allCases.map { layer in
      let index = layer.rawValue
      switch layer {
      case .channelReturnsXY, .scanAngle, .pointSource, .gpsTime:
        return layers[index].used ? layers[index].finish() : []
      default:
        return varies[index] ? layers[index].finish() : []
      }
    }
  }
}
