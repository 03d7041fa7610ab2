/// What LASzip's `laszip encoded` VLR (record 22204) says about a file's compression:
/// the compressor, the chunk size, and the items a point record is made of, in order.
struct LAZParameters: Equatable, Sendable {
  /// One field group of a point record and the codec version that compresses it.
  struct Item: Equatable, Sendable {
    enum Kind: UInt16, Sendable {
      case byte = 0
      case point10 = 6
      case gpsTime11 = 7
      case rgb12 = 8
      case wavePacket13 = 9
      case point14 = 10
      case rgb14 = 11
      case rgbNIR14 = 12
      case wavePacket14 = 13
      case byte14 = 14
    }
    var kind: Kind
    var size: Int
    var version: Int
  }

  enum Compressor: UInt16, Sendable {
    case pointwise = 1
    case pointwiseChunked = 2
    case layeredChunked = 3
  }

  var compressor: Compressor
  /// Points a chunk, or nil for variable-size chunks (the chunk table gives each count).
  var chunkSize: Int?
  var items: [Item]

  /// The bytes of one point record: every item's.
  var recordLength: Int { items.reduce(0) { $0 + $1.size } }

  /// Reads the VLR's payload.
  ///
  /// - Throws: `LASErrorReason.laz` naming what the record holds that cannot be read.
  init(_ payload: [UInt8]) throws(LASErrorReason) {
    func u16(_ at: Int) -> UInt16 { UInt16(payload[at]) | UInt16(payload[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    guard payload.count >= 34 else {
      throw .laz("its laszip record is \(payload.count) bytes, shorter than the 34 it needs")
    }
    let compressorCode = u16(0)
    guard let compressor = Compressor(rawValue: compressorCode) else {
      throw .laz(
        compressorCode == 0
          ? "its laszip record says the points are not compressed"
          : "its laszip record names compressor \(compressorCode), not 1, 2 or 3")
    }
    guard u16(2) == 0 else { throw .laz("its laszip record names coder \(u16(2)), not 0") }
    self.compressor = compressor
    let size = u32(12)
    chunkSize = size == UInt32.max ? nil : Int(size)
    if chunkSize == 0 { throw .laz("its laszip record gives chunks of 0 points") }
    let count = Int(u16(32))
    guard payload.count >= 34 + 6 * count else {
      throw .laz(
        "its laszip record lists \(count) items in \(payload.count - 34) bytes, which hold "
          + "\((payload.count - 34) / 6)")
    }
    var items: [Item] = []
    for index in 0..<count {
      let at = 34 + 6 * index
      let code = u16(at)
      guard let kind = Item.Kind(rawValue: code) else {
        throw .laz(
          "item \(index) of its laszip record has type \(code), which LASzip does not define")
      }
      items.append(Item(kind: kind, size: Int(u16(at + 2)), version: Int(u16(at + 4))))
    }
    self.items = items
  }
}
