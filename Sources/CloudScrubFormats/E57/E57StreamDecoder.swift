/// Decodes one field's byte stream, fed packet by packet: a record may start in one
/// packet's buffer and end in the next one's, so the bits not yet making a whole
/// record are carried over.
///
/// Records are packed from the least significant bit of the first byte up (libE57Format
/// fills little-endian words of 8 to 64 bits the same way, so the byte order is one
/// continuous bit stream).
struct E57StreamDecoder {
  let encoding: E57FieldEncoding
  let bitsPerRecord: Int
  /// Records the stream holds; bits after the last one are padding.
  let recordCount: UInt64
  /// Decoded values not yet taken by `take`.
  private(set) var values: [Double] = []
  private(set) var decodedCount: UInt64 = 0
  private var accumulator: UInt64 = 0
  private var accumulatedBits = 0

  init(encoding: E57FieldEncoding, recordCount: UInt64) {
    self.encoding = encoding
    self.bitsPerRecord = encoding.bitsPerRecord
    self.recordCount = recordCount
  }

  /// Whether every record has been decoded (a constant field never needs bytes).
  var isComplete: Bool { bitsPerRecord == 0 || decodedCount == recordCount }

  /// Values ready to take (unbounded for a constant field).
  var available: Int { bitsPerRecord == 0 ? .max : values.count }

  /// The value of record `index` among those ready (a constant field's only value).
  @inline(__always)
  func value(_ index: Int) -> Double {
    bitsPerRecord == 0 ? encoding.value(ofBits: 0) : values[index]
  }

  /// Drops the first `count` ready values.
  mutating func take(_ count: Int) {
    guard bitsPerRecord > 0 else { return }
    values.removeFirst(count)
  }

  /// Decodes the records in `bytes`, one packet's buffer for this stream.
  mutating func feed(_ bytes: UnsafeRawBufferPointer) {
    guard bitsPerRecord > 0, let base = bytes.baseAddress else { return }
    var offset = 0
    let count = bytes.count
    let bits = bitsPerRecord
    let mask: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
    values.reserveCapacity(values.count + count * 8 / bits + 1)
    while offset < count && decodedCount < recordCount {
      // Whole byte-aligned records straight from memory when nothing is carried.
      if accumulatedBits == 0 && bits % 8 == 0 {
        let size = bits / 8
        let whole = min((count - offset) / size, Int(clamping: recordCount - decodedCount))
        if whole > 0 {
          appendAligned(base + offset, records: whole, size: size)
          offset += whole * size
          decodedCount += UInt64(whole)
          continue
        }
      }
      var byte = UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
      offset += 1
      var bitsLeft = 8
      while bitsLeft > 0 && decodedCount < recordCount {
        let room = 64 - accumulatedBits
        let takeBits = min(bitsLeft, room)
        accumulator |= (byte & ((1 << UInt64(takeBits)) - 1)) << UInt64(accumulatedBits)
        accumulatedBits += takeBits
        byte >>= UInt64(takeBits)
        bitsLeft -= takeBits
        while accumulatedBits >= bits && decodedCount < recordCount {
          values.append(encoding.value(ofBits: accumulator & mask))
          decodedCount += 1
          accumulator = bits == 64 ? 0 : accumulator >> UInt64(bits)
          accumulatedBits -= bits
        }
      }
    }
  }

  private mutating func appendAligned(_ start: UnsafeRawPointer, records: Int, size: Int) {
    switch size {
    case 1:
      for k in 0..<records {
        values.append(encoding.value(ofBits: UInt64(start.load(fromByteOffset: k, as: UInt8.self))))
      }
    case 2:
      for k in 0..<records {
        let raw = UInt16(littleEndian: start.loadUnaligned(fromByteOffset: 2 * k, as: UInt16.self))
        values.append(encoding.value(ofBits: UInt64(raw)))
      }
    case 4:
      if case .float(single: true) = encoding {
        for k in 0..<records {
          let raw = UInt32(
            littleEndian: start.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self))
          values.append(Double(Float(bitPattern: raw)))
        }
      } else {
        for k in 0..<records {
          let raw = UInt32(
            littleEndian: start.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self))
          values.append(encoding.value(ofBits: UInt64(raw)))
        }
      }
    case 8:
      for k in 0..<records {
        let raw = UInt64(littleEndian: start.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))
        values.append(encoding.value(ofBits: raw))
      }
    default:
      for k in 0..<records {
        var raw: UInt64 = 0
        for b in 0..<size {
          raw |= UInt64(start.load(fromByteOffset: size * k + b, as: UInt8.self)) << UInt64(8 * b)
        }
        values.append(encoding.value(ofBits: raw))
      }
    }
  }
}
