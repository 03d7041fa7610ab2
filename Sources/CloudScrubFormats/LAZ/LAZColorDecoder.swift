/// RGB as LASzip codes it: which of the six bytes changed, then each changed byte as a
/// step from the last colour's, green and blue predicted from red's change.
struct LAZColorPrediction {
  private let changedModel = LAZSymbolModel(symbols: 128)
  private let byteModels = (0..<6).map { _ in LAZSymbolModel(symbols: 256) }

  @inline(__always) private static func clamp(_ value: Int) -> Int { min(max(value, 0), 255) }

  /// The next colour after `last` (16-bit red, green, blue).
  func decode(after last: [UInt16], _ decoder: inout LAZArithmeticDecoder) -> [UInt16] {
    let changed = decoder.decodeSymbol(changedModel)
    func byte(_ index: Int, predicted: Int) -> Int {
      (Int(decoder.decodeSymbol(byteModels[index])) + predicted) & 0xFF
    }
    let lastLow = last.map { Int($0 & 0xFF) }
    let lastHigh = last.map { Int($0 >> 8) }
    let redLow = changed & 1 != 0 ? byte(0, predicted: lastLow[0]) : lastLow[0]
    let redHigh = changed & 2 != 0 ? byte(1, predicted: lastHigh[0]) : lastHigh[0]
    guard changed & 64 != 0 else {
      let red = UInt16(redHigh << 8 | redLow)
      return [red, red, red]
    }
    var step = redLow - lastLow[0]
    let greenLow =
      changed & 4 != 0 ? byte(2, predicted: Self.clamp(step + lastLow[1])) : lastLow[1]
    let blueLow: Int
    if changed & 16 != 0 {
      let mean = (step + greenLow - lastLow[1]) / 2
      blueLow = byte(4, predicted: Self.clamp(mean + lastLow[2]))
    } else {
      blueLow = lastLow[2]
    }
    step = redHigh - lastHigh[0]
    let greenHigh =
      changed & 8 != 0 ? byte(3, predicted: Self.clamp(step + lastHigh[1])) : lastHigh[1]
    let blueHigh: Int
    if changed & 32 != 0 {
      let mean = (step + greenHigh - lastHigh[1]) / 2
      blueHigh = byte(5, predicted: Self.clamp(mean + lastHigh[2]))
    } else {
      blueHigh = lastHigh[2]
    }
    return [
      UInt16(redHigh << 8 | redLow), UInt16(greenHigh << 8 | greenLow),
      UInt16(blueHigh << 8 | blueLow),
    ]
  }
}

/// The `rgb12` item, version 2: the 6 colour bytes of LAS formats 2, 3 and 5.
final class LAZRGB12Decoder: LAZItemDecoder {
  private var last: [UInt16]
  private let prediction = LAZColorPrediction()

  init(first: UnsafeRawPointer) {
    last = (0..<3).map {
      UInt16(littleEndian: first.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self))
    }
  }

  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder) {
    last = prediction.decode(after: last, &decoder)
    for channel in 0..<3 {
      item.storeBytes(of: last[channel].littleEndian, toByteOffset: 2 * channel, as: UInt16.self)
    }
  }
}

/// The `byte` item, version 2: extra bytes, each a step from its last value.
final class LAZBytesDecoder: LAZItemDecoder {
  private var last: [UInt8]
  private let models: [LAZSymbolModel]

  init(first: UnsafeRawPointer, count: Int) {
    last = (0..<count).map { first.load(fromByteOffset: $0, as: UInt8.self) }
    models = (0..<count).map { _ in LAZSymbolModel(symbols: 256) }
  }

  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder) {
    for index in 0..<last.count {
      last[index] = last[index] &+ UInt8(decoder.decodeSymbol(models[index]))
      item.storeBytes(of: last[index], toByteOffset: index, as: UInt8.self)
    }
  }
}
