/// The layers of a `point14` chunk, in their order in the chunk: each field group is
/// coded in its own stream.
enum LAZPoint14Layer: Int, CaseIterable {
  case channelReturnsXY, z, classification, flags, intensity, scanAngle, userData
  case pointSource, gpsTime

  static let count = allCases.count
}

/// The models and last values of one scanner channel in a `point14` chunk.
final class LAZPoint14Context {
  let arena: LAZArena
  let last: UnsafeMutablePointer<LAZPoint14Fields>
  let xMedians: UnsafeMutablePointer<LAZMedian5>
  let yMedians: UnsafeMutablePointer<LAZMedian5>
  let lastZ: UnsafeMutablePointer<Int32>
  let lastIntensity: UnsafeMutablePointer<UInt16>
  let gps: LAZGPSTimeSequences
  let changed: UnsafeMutablePointer<LAZSymbolModel>
  let scannerChannel: LAZSymbolModel
  let returnsModels: UnsafeMutablePointer<LAZSymbolModel?>
  let returnNumberModels: UnsafeMutablePointer<LAZSymbolModel?>
  let returnNumberSameTime: LAZSymbolModel
  let dx: LAZIntegerCodec
  let dy: LAZIntegerCodec
  let z: LAZIntegerCodec
  let classificationModels: UnsafeMutablePointer<LAZSymbolModel?>
  let flagModels: UnsafeMutablePointer<LAZSymbolModel?>
  let userDataModels: UnsafeMutablePointer<LAZSymbolModel?>
  let intensity: LAZIntegerCodec
  let scanAngle: LAZIntegerCodec
  let pointSource: LAZIntegerCodec

  init(from item: LAZPoint14Fields, arena: LAZArena) {
    self.arena = arena
    last = arena.buffer(1, item)
    last.pointee.gpsTimeChanged = false
    xMedians = arena.buffer(12, LAZMedian5())
    yMedians = arena.buffer(12, LAZMedian5())
    lastZ = arena.buffer(8, item.z)
    lastIntensity = arena.buffer(8, item.intensity)
    gps = LAZGPSTimeSequences(first: item.gpsTime, codesUnchanged: false, arena: arena)
    changed = arena.models(8, symbols: 128)
    scannerChannel = LAZSymbolModel(symbols: 3, in: arena)
    returnsModels = arena.buffer(16, nil)
    returnNumberModels = arena.buffer(16, nil)
    returnNumberSameTime = LAZSymbolModel(symbols: 13, in: arena)
    dx = LAZIntegerCodec(bits: 32, contexts: 2, in: arena)
    dy = LAZIntegerCodec(bits: 32, contexts: 22, in: arena)
    z = LAZIntegerCodec(bits: 32, contexts: 20, in: arena)
    classificationModels = arena.buffer(64, nil)
    flagModels = arena.buffer(64, nil)
    userDataModels = arena.buffer(64, nil)
    intensity = LAZIntegerCodec(bits: 16, contexts: 4, in: arena)
    scanAngle = LAZIntegerCodec(bits: 16, contexts: 2, in: arena)
    pointSource = LAZIntegerCodec(bits: 16, in: arena)
  }

  /// The model at `index` of `models`, made on first use.
  func model(
    _ models: UnsafeMutablePointer<LAZSymbolModel?>, _ index: Int, symbols: Int
  ) -> LAZSymbolModel {
    if let model = models[index] { return model }
    let model = LAZSymbolModel(symbols: symbols, in: arena)
    models[index] = model
    return model
  }
}
