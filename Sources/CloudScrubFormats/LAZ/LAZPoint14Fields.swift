/// The fields of a LAS 1.4 point record (formats 6–10, their first 30 bytes) as the
/// layered `point14` codec predicts them.
struct LAZPoint14Fields {
  var x: Int32 = 0
  var y: Int32 = 0
  var z: Int32 = 0
  var intensity: UInt16 = 0
  var returnNumber: UInt32 = 0
  var returns: UInt32 = 0
  /// Synthetic, key-point, withheld, overlap: the low 4 bits of byte 15.
  var classificationFlags: UInt32 = 0
  var scannerChannel: UInt32 = 0
  var scanDirection: UInt32 = 0
  var edgeOfFlightLine: UInt32 = 0
  var classification: UInt8 = 0
  var userData: UInt8 = 0
  var scanAngle: Int16 = 0
  var pointSource: UInt16 = 0
  /// The GPS time's 64-bit pattern.
  var gpsTime: Int64 = 0
  /// Whether this point's GPS time differed from the one before it in its context.
  var gpsTimeChanged = false

  init() {}

  /// The fields of the 30-byte record at `record`.
  init(record: UnsafeRawPointer) {
    func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
      T(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
    x = load(0, Int32.self)
    y = load(4, Int32.self)
    z = load(8, Int32.self)
    intensity = load(12, UInt16.self)
    let returnByte = UInt32(load(14, UInt8.self))
    returnNumber = returnByte & 15
    returns = returnByte >> 4
    let flags = UInt32(load(15, UInt8.self))
    classificationFlags = flags & 15
    scannerChannel = (flags >> 4) & 3
    scanDirection = (flags >> 6) & 1
    edgeOfFlightLine = flags >> 7
    classification = load(16, UInt8.self)
    userData = load(17, UInt8.self)
    scanAngle = load(18, Int16.self)
    pointSource = load(20, UInt16.self)
    gpsTime = load(22, Int64.self)
  }

  /// Writes the 30-byte record at `record`.
  func store(_ record: UnsafeMutableRawPointer) {
    record.storeBytes(of: x.littleEndian, toByteOffset: 0, as: Int32.self)
    record.storeBytes(of: y.littleEndian, toByteOffset: 4, as: Int32.self)
    record.storeBytes(of: z.littleEndian, toByteOffset: 8, as: Int32.self)
    record.storeBytes(of: intensity.littleEndian, toByteOffset: 12, as: UInt16.self)
    record.storeBytes(
      of: UInt8(truncatingIfNeeded: returns << 4 | returnNumber), toByteOffset: 14, as: UInt8.self)
    let flags =
      edgeOfFlightLine << 7 | scanDirection << 6 | scannerChannel << 4 | classificationFlags
    record.storeBytes(of: UInt8(truncatingIfNeeded: flags), toByteOffset: 15, as: UInt8.self)
    record.storeBytes(of: classification, toByteOffset: 16, as: UInt8.self)
    record.storeBytes(of: userData, toByteOffset: 17, as: UInt8.self)
    record.storeBytes(of: scanAngle.littleEndian, toByteOffset: 18, as: Int16.self)
    record.storeBytes(of: pointSource.littleEndian, toByteOffset: 20, as: UInt16.self)
    record.storeBytes(of: gpsTime.littleEndian, toByteOffset: 22, as: Int64.self)
  }
}

/// One layer of a layered chunk and its decoder. An empty layer is one whose field
/// never changes in the chunk; its decoder is never asked.
struct LAZLayer {
  var decoder: LAZArithmeticDecoder
  let present: Bool

  init(_ bytes: UnsafeRawBufferPointer) {
    decoder = LAZArithmeticDecoder(bytes)
    present = !bytes.isEmpty
  }

  /// Bytes read past the end: none for an empty layer, which is never read.
  var overrun: Int { present ? decoder.overrun : 0 }
}

/// LASzip's six return contexts of `point14` (`map[n][r]`, return r of n): single,
/// first, last and middle returns of short and long pulses.
enum LAZReturnContexts14 {
  static let map: [[UInt8]] = [
    [0, 1, 2, 3, 4, 5, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5],
    [1, 0, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
    [2, 1, 2, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3],
    [3, 3, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    [4, 3, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    [5, 3, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    [3, 3, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    [4, 3, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4],
    [4, 3, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4],
    [5, 3, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4],
    [5, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4],
    [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4, 4, 4],
    [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4, 4],
    [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4],
    [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5],
    [5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5],
  ]

  /// The level of return r of n: how far from the last return, at most 7.
  @inline(__always) static func level(_ returns: UInt32, _ returnNumber: UInt32) -> Int {
    min(abs(Int(returns) - Int(returnNumber)), 7)
  }
}

/// The contexts a `point14` record's fields are coded in, from its return r of n and
/// whether its GPS time changed.
struct LAZPoint14Contexts {
  /// The return level for z (`LAZReturnContexts14.level`).
  let level: Int
  /// First and last return: 2 for the first, 1 for the last (3 for both).
  let firstLast: Int
  /// 1 for a single return.
  let single: Int
  /// 1 when the GPS time changed.
  let time: Int
  /// The x and y step medians' index: the return context and the time.
  let median: Int

  @inline(__always) init(returns n: UInt32, number r: UInt32, timeChanged: Bool) {
    level = LAZReturnContexts14.level(n, r)
    firstLast = (r == 1 ? 2 : 0) + (r >= n ? 1 : 0)
    single = n == 1 ? 1 : 0
    time = timeChanged ? 1 : 0
    median = Int(LAZReturnContexts14.map[Int(n)][Int(r)]) << 1 | time
  }
}
