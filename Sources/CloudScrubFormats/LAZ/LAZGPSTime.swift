/// GPS times as LASzip codes them: the 64-bit pattern of the double as an integer, in up
/// to four interleaved sequences (multiple-return and multi-channel data), each predicted
/// from its last step times a small multiplier. `gpstime11` version 2 and the GPS layer
/// of `point14` version 3 differ only in how "no change" is said.
struct LAZGPSTimeSequences {
  static let multi: Int32 = 500
  static let multiMinus: Int32 = -10
  /// Codes below this are multipliers of the last step.
  static let multipliers = UInt32(multi - multiMinus + 1)

  // The state lives in the chunk's arena, so decoding mutates no struct or class field.
  private let lastTime: UnsafeMutablePointer<Int64>
  private let lastStep: UnsafeMutablePointer<Int32>
  private let extremeCount: UnsafeMutablePointer<Int32>
  /// The sequence in use and the one a new time goes to next.
  private let cursor: UnsafeMutablePointer<Int>
  private var last: Int {
    get { cursor[0] }
    nonmutating set { cursor[0] = newValue }
  }
  private var next: Int {
    get { cursor[1] }
    nonmutating set { cursor[1] = newValue }
  }
  private let multiModel: LAZSymbolModel
  private let zeroStepModel: LAZSymbolModel
  /// The code for "a new sequence"; the three after it switch sequences.
  private let codeFull: UInt32
  private let steps: LAZIntegerCodec
  /// Version 2 codes "unchanged" (0 after a zero step, the code after the multipliers
  /// otherwise);
  /// version 3 says whether the time changed elsewhere and codes only changes.
  private let codesUnchanged: Bool

  init(first: Int64, codesUnchanged: Bool, arena: LAZArena) {
    lastTime = arena.buffer(4, 0)
    lastStep = arena.buffer(4, 0)
    extremeCount = arena.buffer(4, 0)
    cursor = arena.buffer(2, 0)
    lastTime[0] = first
    self.codesUnchanged = codesUnchanged
    steps = LAZIntegerCodec(bits: 32, contexts: 9, in: arena)
    zeroStepModel = LAZSymbolModel(symbols: codesUnchanged ? 6 : 5, in: arena)
    codeFull = Self.multipliers + (codesUnchanged ? 1 : 0)
    multiModel = LAZSymbolModel(symbols: Int(codeFull) + 4, in: arena)
  }

  /// The time the sequences are at now.
  var current: Int64 { lastTime[last] }

  /// Decodes the next time (a changed one, for version 3).
  func decode(_ decoder: inout LAZArithmeticDecoder) {
    // A switch to another sequence is followed by that sequence's own code.
    var switches = 0
    while !decodeOnce(&decoder) && switches < 4 { switches += 1 }
  }

  /// Decodes one code; false when it switched sequences and a code follows.
  private func decodeOnce(_ decoder: inout LAZArithmeticDecoder) -> Bool {
    if lastStep[last] == 0 {
      var code = decoder.decodeSymbol(zeroStepModel)
      if codesUnchanged {
        if code == 0 { return true }
        code -= 1
      }
      switch code {
      case 0:
        lastStep[last] = steps.decompress(0, context: 0, &decoder)
        lastTime[last] &+= Int64(lastStep[last])
        extremeCount[last] = 0
      case 1: startNewSequence(&decoder)
      default:
        last = (last + Int(code) - 1) & 3
        return false
      }
      return true
    }
    let code = decoder.decodeSymbol(multiModel)
    if code == 1 {
      lastTime[last] &+= Int64(steps.decompress(lastStep[last], context: 1, &decoder))
      extremeCount[last] = 0
    } else if code < Self.multipliers {
      let step: Int32
      if code == 0 {
        step = steps.decompress(0, context: 7, &decoder)
        noteExtreme(step)
      } else if code < UInt32(Self.multi) {
        step = steps.decompress(
          Int32(code) &* lastStep[last], context: code < 10 ? 2 : 3, &decoder)
      } else if code == UInt32(Self.multi) {
        step = steps.decompress(Self.multi &* lastStep[last], context: 4, &decoder)
        noteExtreme(step)
      } else {
        let multiplier = Self.multi - Int32(code)
        if multiplier > Self.multiMinus {
          step = steps.decompress(multiplier &* lastStep[last], context: 5, &decoder)
        } else {
          step = steps.decompress(Self.multiMinus &* lastStep[last], context: 6, &decoder)
          noteExtreme(step)
        }
      }
      lastTime[last] &+= Int64(step)
    } else if code == codeFull {
      startNewSequence(&decoder)
    } else if code > codeFull {
      last = (last + Int(code - codeFull)) & 3
      return false
    }
    return true
  }

  /// Codes `time`, which differs from `current` (the `point14` layer's coding, version
  /// 3): as a step from the sequence it fits in 32 bits of, switching to it first, or
  /// as a new sequence.
  func encode(_ time: Int64, _ encoder: inout LAZArithmeticEncoder) {
    precondition(!codesUnchanged, "only version 3's GPS times are written")
    guard let step = Self.step(time, from: lastTime[last]) else {
      let found = (1..<4).first { Self.step(time, from: lastTime[(last + $0) & 3]) != nil }
      if let found {
        let model = lastStep[last] == 0 ? zeroStepModel : multiModel
        let code = lastStep[last] == 0 ? UInt32(found + 1) : codeFull + UInt32(found)
        encoder.encodeSymbol(model, code)
        last = (last + found) & 3
        encode(time, &encoder)
        return
      }
      encoder.encodeSymbol(
        lastStep[last] == 0 ? zeroStepModel : multiModel, lastStep[last] == 0 ? 1 : codeFull)
      next = (next + 1) & 3
      steps.compress(
        Int32(truncatingIfNeeded: lastTime[last] >> 32), Int32(truncatingIfNeeded: time >> 32),
        context: 8, &encoder)
      encoder.writeInt(UInt32(truncatingIfNeeded: time))
      last = next
      lastTime[last] = time
      lastStep[last] = 0
      extremeCount[last] = 0
      return
    }
    defer { lastTime[last] = time }
    let usual = lastStep[last]
    guard usual != 0 else {
      encoder.encodeSymbol(zeroStepModel, 0)
      steps.compress(0, step, context: 0, &encoder)
      lastStep[last] = step
      extremeCount[last] = 0
      return
    }
    // The nearest whole multiple of the usual step.
    let ratio = (Double(step) / Double(usual)).rounded(.toNearestOrAwayFromZero)
    let multiplier = Int32(max(min(ratio, Double(Self.multi)), Double(Self.multiMinus)))
    if multiplier == 1 {
      encoder.encodeSymbol(multiModel, 1)
      steps.compress(usual, step, context: 1, &encoder)
      extremeCount[last] = 0
    } else if multiplier == 0 {
      encoder.encodeSymbol(multiModel, 0)
      steps.compress(0, step, context: 7, &encoder)
      noteExtreme(step)
    } else if multiplier > 0 {
      encoder.encodeSymbol(multiModel, UInt32(multiplier))
      let context = multiplier == Self.multi ? 4 : (multiplier < 10 ? 2 : 3)
      steps.compress(multiplier &* usual, step, context: context, &encoder)
      if multiplier == Self.multi { noteExtreme(step) }
    } else {
      encoder.encodeSymbol(multiModel, UInt32(Self.multi - multiplier))
      let extreme = multiplier == Self.multiMinus
      steps.compress(multiplier &* usual, step, context: extreme ? 6 : 5, &encoder)
      if extreme { noteExtreme(step) }
    }
  }

  /// `time - from` when it fits in 32 bits.
  private static func step(_ time: Int64, from: Int64) -> Int32? {
    let (difference, overflow) = time.subtractingReportingOverflow(from)
    guard !overflow, let step = Int32(exactly: difference) else { return nil }
    return step
  }

  /// A step far from the usual: after more than three in a row it becomes the usual.
  private func noteExtreme(_ step: Int32) {
    extremeCount[last] += 1
    if extremeCount[last] > 3 {
      lastStep[last] = step
      extremeCount[last] = 0
    }
  }

  /// A time too far from this sequence's: its high half predicted, its low half raw.
  private func startNewSequence(_ decoder: inout LAZArithmeticDecoder) {
    next = (next + 1) & 3
    let high = steps.decompress(
      Int32(truncatingIfNeeded: lastTime[last] >> 32), context: 8, &decoder)
    let low = decoder.readInt()
    lastTime[next] = Int64(bitPattern: UInt64(UInt32(bitPattern: high)) << 32 | UInt64(low))
    last = next
    lastStep[last] = 0
    extremeCount[last] = 0
  }
}

/// The `gpstime11` item, version 2: the 8-byte GPS time of LAS formats 1, 3, 4 and 5.
final class LAZGPSTime11Decoder {
  private let sequences: LAZGPSTimeSequences

  init(first: UnsafeRawPointer, arena: LAZArena) {
    let bits = UInt64(littleEndian: first.loadUnaligned(as: UInt64.self))
    sequences = LAZGPSTimeSequences(
      first: Int64(bitPattern: bits), codesUnchanged: true, arena: arena)
  }

  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder) {
    sequences.decode(&decoder)
    item.storeBytes(of: UInt64(bitPattern: sequences.current).littleEndian, as: UInt64.self)
  }
}
