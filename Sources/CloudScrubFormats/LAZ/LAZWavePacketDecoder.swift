/// The `wavepacket13` item (LAS formats 4 and 5, 29 bytes): the descriptor index, the
/// waveform's byte offset (the same as the last, just after it, a 32-bit step from it,
/// or raw), its size, and the return point and x(t) y(t) z(t) (floats, coded as their bit
/// patterns). CloudScrub does not read the waveforms; it decodes the item to stay in
/// step with the items after it in the point-wise stream, and keeps the values.
final class LAZWavePacketDecoder {
  /// The last item's 29 bytes.
  let last: UnsafeMutablePointer<UInt8>
  /// The offset code before this one, and the last 32-bit offset step.
  private let state: UnsafeMutablePointer<Int32>
  private let index: LAZSymbolModel
  private let offsetCodes: [LAZSymbolModel]
  private let offsetStep: LAZIntegerCodec
  private let packetSize: LAZIntegerCodec
  private let returnPoint: LAZIntegerCodec
  private let xyz: LAZIntegerCodec

  init(first: UnsafeRawPointer, arena: LAZArena) {
    last = arena.buffer(29, 0)
    last.update(from: first.assumingMemoryBound(to: UInt8.self), count: 29)
    state = arena.buffer(2, 0)
    index = LAZSymbolModel(symbols: 256, in: arena)
    offsetCodes = (0..<4).map { _ in LAZSymbolModel(symbols: 4, in: arena) }
    offsetStep = LAZIntegerCodec(bits: 32, in: arena)
    packetSize = LAZIntegerCodec(bits: 32, in: arena)
    returnPoint = LAZIntegerCodec(bits: 32, in: arena)
    xyz = LAZIntegerCodec(bits: 32, contexts: 3, in: arena)
  }

  func decode(into item: UnsafeMutableRawPointer, _ decoder: inout LAZArithmeticDecoder) {
    decode(into: item, last: last, &decoder)
  }

  /// Decodes an item predicted from (and stored into) `last`, under these models: the
  /// layered `wavepacket14` may predict from another scanner channel's last item.
  func decode(
    into item: UnsafeMutableRawPointer, last: UnsafeMutablePointer<UInt8>,
    _ decoder: inout LAZArithmeticDecoder
  ) {
    func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
      T(littleEndian: UnsafeRawPointer(last).loadUnaligned(fromByteOffset: offset, as: T.self))
    }
    func store<T: FixedWidthInteger>(_ value: T, _ offset: Int) {
      UnsafeMutableRawPointer(last).storeBytes(
        of: value.littleEndian, toByteOffset: offset, as: T.self)
    }
    last[0] = UInt8(decoder.decodeSymbol(index))
    let code = decoder.decodeSymbol(offsetCodes[Int(state[0])])
    state[0] = Int32(code)
    let lastOffset = load(1, UInt64.self)
    let lastSize = load(9, UInt32.self)
    switch code {
    case 0: break
    case 1: store(lastOffset &+ UInt64(lastSize), 1)
    case 2:
      state[1] = offsetStep.decompress(state[1], &decoder)
      store(lastOffset &+ UInt64(bitPattern: Int64(state[1])), 1)
    default:
      let low = UInt64(decoder.readInt())
      store(UInt64(decoder.readInt()) << 32 | low, 1)
    }
    store(packetSize.decompress(Int32(bitPattern: lastSize), &decoder), 9)
    store(returnPoint.decompress(load(13, Int32.self), &decoder), 13)
    for axis in 0..<3 {
      store(xyz.decompress(load(17 + 4 * axis, Int32.self), context: axis, &decoder), 17 + 4 * axis)
    }
    item.copyMemory(from: last, byteCount: 29)
  }
}
