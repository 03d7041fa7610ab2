import CloudScrubCore
import Foundation

/// Fixed-size binary records written in place, one field (column) at a time: the
/// binary encoders (PCD, LAS) grow their buffer once by every record of a chunk and
/// store each field at its offset, instead of appending values one by one.
///
/// Stores are little-endian and need no alignment (`storeBytes` allows unaligned
/// addresses), so a record may have any size.
struct RecordColumns {
  /// The first record's first byte.
  let base: UnsafeMutableRawPointer
  /// Bytes a record takes.
  let stride: Int
  /// Records in the block.
  let count: Int

  /// Stores `value(k)` at `fieldOffset` of every record `k`.
  @inline(__always)
  func column<T: FixedWidthInteger>(at fieldOffset: Int, _ value: (Int) -> T) {
    var address = base + fieldOffset
    for k in 0..<count {
      address.storeBytes(of: value(k).littleEndian, as: T.self)
      address += stride
    }
  }

  /// Stores the x, y, z of `points[first + k]` as three floats at `fieldOffset` of
  /// every record `k`.
  @inline(__always)
  func points(_ points: UnsafeBufferPointer<Point3>, from first: Int, at fieldOffset: Int) {
    var address = base + fieldOffset
    for k in 0..<count {
      let p = points[first + k]
      address.storeBytes(of: p.x.bitPattern.littleEndian, as: UInt32.self)
      address.storeBytes(of: p.y.bitPattern.littleEndian, toByteOffset: 4, as: UInt32.self)
      address.storeBytes(of: p.z.bitPattern.littleEndian, toByteOffset: 8, as: UInt32.self)
      address += stride
    }
  }

  /// Stores `values[first + k]` in its own type at `fieldOffset` of every record `k`.
  func attribute(_ values: AttributeValues, from first: Int, at fieldOffset: Int) {
    switch values {
    case .int8(let v): v.withUnsafeBufferPointer { v in column(at: fieldOffset) { v[first + $0] } }
    case .uint8(let v): v.withUnsafeBufferPointer { v in column(at: fieldOffset) { v[first + $0] } }
    case .int16(let v): v.withUnsafeBufferPointer { v in column(at: fieldOffset) { v[first + $0] } }
    case .uint16(let v):
      v.withUnsafeBufferPointer { v in column(at: fieldOffset) { v[first + $0] } }
    case .int32(let v): v.withUnsafeBufferPointer { v in column(at: fieldOffset) { v[first + $0] } }
    case .uint32(let v):
      v.withUnsafeBufferPointer { v in column(at: fieldOffset) { v[first + $0] } }
    case .float32(let v):
      v.withUnsafeBufferPointer { v in column(at: fieldOffset) { v[first + $0].bitPattern } }
    case .float64(let v):
      v.withUnsafeBufferPointer { v in column(at: fieldOffset) { v[first + $0].bitPattern } }
    }
  }

  /// Stores the fields both binary encoders put last, from `fieldOffset` on: the
  /// normals of `piece[first + k]` (three floats) when `normals`, then each of
  /// `attributes` in its own type.
  func normalsAndAttributes(
    of piece: PointCloud, normals: Bool, attributes: [AttributeValues], from first: Int,
    at fieldOffset: Int
  ) {
    var offset = fieldOffset
    if normals {
      piece.normals?.withUnsafeBufferPointer { points($0, from: first, at: offset) }
      offset += 12
    }
    for values in attributes {
      attribute(values, from: first, at: offset)
      offset += values.scalarType.byteCount
    }
  }
}

extension Array where Element == UInt8 {
  /// Appends `count` records of `stride` bytes, zeroed, and lets `fill` store their
  /// fields.
  mutating func appendRecords(
    count: Int, stride: Int, _ fill: (RecordColumns) throws -> Void
  ) rethrows {
    let byteCount = count * stride
    guard byteCount > 0 else { return }
    let block = try [UInt8](unsafeUninitializedCapacity: byteCount) { bytes, initialized in
      guard let base = bytes.baseAddress else { return }
      let raw = UnsafeMutableRawPointer(base)
      raw.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
      initialized = byteCount
      try fill(RecordColumns(base: raw, stride: stride, count: count))
    }
    if isEmpty { self = block } else { append(contentsOf: block) }
  }
}
