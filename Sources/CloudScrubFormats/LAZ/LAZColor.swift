/// RGB as LASzip codes it: which of the six bytes changed, then each changed byte as a
/// step from the last colour's, green and blue predicted from red's change.
struct LAZColorPrediction {
  private let changedModel: LAZSymbolModel
  private let byteModels: UnsafeMutablePointer<LAZSymbolModel>

  init(arena: LAZArena) {
    changedModel = LAZSymbolModel(symbols: 128, in: arena)
    byteModels = arena.models(6, symbols: 256)
  }

  @inline(__always) private static func clamp(_ value: Int) -> Int { min(max(value, 0), 255) }

  @inline(__always) private func byte(
    _ index: Int, predicted: Int, _ decoder: inout LAZArithmeticDecoder
  ) -> Int {
    (Int(decoder.decodeSymbol(byteModels[index])) + predicted) & 0xFF
  }

  /// The next colour after `last`.
  @inline(__always) func decode(
    after last: LAZColor, _ decoder: inout LAZArithmeticDecoder
  ) -> LAZColor {
    let changed = decoder.decodeSymbol(changedModel)
    let redLow = changed & 1 != 0 ? byte(0, predicted: last.low(0), &decoder) : last.low(0)
    let redHigh = changed & 2 != 0 ? byte(1, predicted: last.high(0), &decoder) : last.high(0)
    guard changed & 64 != 0 else {
      let red = UInt16(redHigh << 8 | redLow)
      return LAZColor(red: red, green: red, blue: red)
    }
    var step = redLow - last.low(0)
    let greenLow =
      changed & 4 != 0
      ? byte(2, predicted: Self.clamp(step + last.low(1)), &decoder) : last.low(1)
    var blueLow = last.low(2)
    if changed & 16 != 0 {
      let mean = (step + greenLow - last.low(1)) / 2
      blueLow = byte(4, predicted: Self.clamp(mean + last.low(2)), &decoder)
    }
    step = redHigh - last.high(0)
    let greenHigh =
      changed & 8 != 0
      ? byte(3, predicted: Self.clamp(step + last.high(1)), &decoder) : last.high(1)
    var blueHigh = last.high(2)
    if changed & 32 != 0 {
      let mean = (step + greenHigh - last.high(1)) / 2
      blueHigh = byte(5, predicted: Self.clamp(mean + last.high(2)), &decoder)
    }
    return LAZColor(
      red: UInt16(redHigh << 8 | redLow), green: UInt16(greenHigh << 8 | greenLow),
      blue: UInt16(blueHigh << 8 | blueLow))
  }

  /// Codes `color`, which follows `last`.
  @inline(__always) func encode(
    _ color: LAZColor, after last: LAZColor, _ encoder: inout LAZArithmeticEncoder
  ) {
    var changed: UInt32 = 0
    for channel in 0..<3 {
      if color.low(channel) != last.low(channel) { changed |= 1 << (2 * channel) }
      if color.high(channel) != last.high(channel) { changed |= 2 << (2 * channel) }
    }
    if color.green != color.red || color.blue != color.red { changed |= 64 }
    encoder.encodeSymbol(changedModel, changed)
    let models = byteModels
    func byte(_ index: Int, _ value: Int, predicted: Int) {
      encoder.encodeSymbol(models[index], UInt32((value - predicted) & 0xFF))
    }
    if changed & 1 != 0 { byte(0, color.low(0), predicted: last.low(0)) }
    if changed & 2 != 0 { byte(1, color.high(0), predicted: last.high(0)) }
    guard changed & 64 != 0 else { return }
    var step = color.low(0) - last.low(0)
    if changed & 4 != 0 { byte(2, color.low(1), predicted: Self.clamp(step + last.low(1))) }
    if changed & 16 != 0 {
      let mean = (step + color.low(1) - last.low(1)) / 2
      byte(4, color.low(2), predicted: Self.clamp(mean + last.low(2)))
    }
    step = color.high(0) - last.high(0)
    if changed & 8 != 0 { byte(3, color.high(1), predicted: Self.clamp(step + last.high(1))) }
    if changed & 32 != 0 {
      let mean = (step + color.high(1) - last.high(1)) / 2
      byte(5, color.high(2), predicted: Self.clamp(mean + last.high(2)))
    }
  }
}

/// A 16-bit RGB colour as the LAZ codecs keep it.
struct LAZColor {
  var red: UInt16
  var green: UInt16
  var blue: UInt16

  init(red: UInt16, green: UInt16, blue: UInt16) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// The 6 bytes at `record`.
  init(record: UnsafeRawPointer) {
    func load(_ index: Int) -> UInt16 {
      UInt16(littleEndian: record.loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self))
    }
    self.init(red: load(0), green: load(1), blue: load(2))
  }

  @inline(__always) private func channel(_ index: Int) -> UInt16 {
    index == 0 ? red : (index == 1 ? green : blue)
  }
  @inline(__always) func low(_ index: Int) -> Int { Int(channel(index) & 0xFF) }
  @inline(__always) func high(_ index: Int) -> Int { Int(channel(index) >> 8) }

  func store(_ record: UnsafeMutableRawPointer) {
    record.storeBytes(of: red.littleEndian, toByteOffset: 0, as: UInt16.self)
    record.storeBytes(of: green.littleEndian, toByteOffset: 2, as: UInt16.self)
    record.storeBytes(of: blue.littleEndian, toByteOffset: 4, as: UInt16.self)
  }
}

/// The `rgb12` item, version 2: the 6 colour bytes of LAS formats 2, 3 and 5.
final class LAZRGB12Decoder {
  private let last: UnsafeMutablePointer<LAZColor>
  private let prediction: LAZColorPrediction

  init(first: UnsafeRawPointer, arena: LAZArena) {
    prediction = LAZColorPrediction(arena: arena)
    last = arena.buffer(1, LAZColor(record: first))
  }

  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder) {
    last.pointee = prediction.decode(after: last.pointee, &decoder)
    last.pointee.store(item)
  }
}

/// The `byte` item, version 2: extra bytes, each a step from its last value.
final class LAZBytesDecoder {
  private let last: UnsafeMutablePointer<UInt8>
  private let count: Int
  private let models: [LAZSymbolModel]

  init(first: UnsafeRawPointer, count: Int, arena: LAZArena) {
    self.count = count
    last = arena.buffer(count, 0)
    last.update(from: first.assumingMemoryBound(to: UInt8.self), count: count)
    models = (0..<count).map { _ in LAZSymbolModel(symbols: 256, in: arena) }
  }

  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder) {
    for index in 0..<count {
      last[index] = last[index] &+ UInt8(decoder.decodeSymbol(models[index]))
      item.storeBytes(of: last[index], toByteOffset: index, as: UInt8.self)
    }
  }
}
