import CloudScrubCore
import Foundation

/// Text records written on every core: a range of points is cut into pieces, each
/// piece's lines are written straight into a byte buffer of its own (`TextCursor`, no
/// per-value append), and the buffers are appended in order, so the bytes are those of
/// one pass over the points.
struct TextRecordLines: Sendable {
  /// How a line writes a point's colour.
  enum ColorText: Sendable {
    case none
    /// PCL's packed `0x00RRGGBB` as one decimal integer.
    case packed
    /// `r g b`, three integers.
    case channels
  }

  /// Points a piece holds at least: smaller ranges are written on the calling thread.
  static let minimumPerPiece = 4096

  let separator: UInt8
  let color: ColorText
  let normals: Bool

  /// The longest line a point can take: 16 bytes a float, 24 a double, 11 an integer,
  /// a separator after each value.
  func maximumLineBytes(attributes: Int) -> Int {
    3 * 17 + 36 + (normals ? 3 * 17 : 0) + attributes * 25 + 1
  }

  /// Appends the lines of the points `range` of `piece` to `buffer`, in order.
  func append(
    _ piece: PointCloud, _ range: Range<Int>, attributes: [AttributeValues],
    to buffer: inout [UInt8]
  ) {
    let pieces = min(
      2 * Parallel.cores, range.count / Self.minimumPerPiece)
    guard pieces > 1 else {
      buffer.append(contentsOf: lines(piece, range, attributes))
      return
    }
    let outputs = ParallelSlots<[UInt8]>(count: pieces, initial: [])
    Parallel.forEachRange(pieces, minimumPerTask: 1) { tasks in
      for k in tasks {
        let start = range.lowerBound + range.count * k / pieces
        let end = range.lowerBound + range.count * (k + 1) / pieces
        outputs[k] = lines(piece, start..<end, attributes)
      }
    }
    for k in 0..<pieces { buffer.append(contentsOf: outputs[k]) }
  }

  private func lines(_ piece: PointCloud, _ range: Range<Int>, _ attributes: [AttributeValues])
    -> [UInt8]
  {
    let capacity = range.count * maximumLineBytes(attributes: attributes.count)
    return [UInt8](unsafeUninitializedCapacity: capacity) { bytes, initialized in
      guard let base = bytes.baseAddress else { return }
      var text = TextCursor(base)
      let separator = separator
      for index in range {
        let p = piece.positions[index]
        text.put(p.x)
        text.put(separator)
        text.put(p.y)
        text.put(separator)
        text.put(p.z)
        switch color {
        case .none: break
        case .packed:
          if let c = piece.colors?[index] {
            text.put(separator)
            text.put(integer: UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b))
          }
        case .channels:
          if let c = piece.colors?[index] {
            text.put(separator)
            text.put(integer: c.r)
            text.put(separator)
            text.put(integer: c.g)
            text.put(separator)
            text.put(integer: c.b)
          }
        }
        if normals, let n = piece.normals?[index] {
          text.put(separator)
          text.put(n.x)
          text.put(separator)
          text.put(n.y)
          text.put(separator)
          text.put(n.z)
        }
        for values in attributes {
          text.put(separator)
          text.put(values, at: index)
        }
        text.put(UInt8(ascii: "\n"))
      }
      initialized = text.count
    }
  }
}

extension TextCursor {
  /// A float's shortest text (`FloatText`).
  @inline(__always)
  mutating func put(_ value: Float) { advance(FloatText.write(value, into: base + count)) }

  /// An integer in decimal.
  @inline(__always)
  mutating func put<T: BinaryInteger>(integer value: T) {
    if value < 0 { put(UInt8(ascii: "-")) }
    var magnitude = UInt64(value.magnitude)
    var digits = 1
    var rest = magnitude / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    for k in stride(from: digits - 1, through: 0, by: -1) {
      base[count + k] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
      magnitude /= 10
    }
    advance(digits)
  }

  /// An attribute's value at `index`: integers in decimal, floats in their shortest
  /// form that reads back to the same bits (doubles through `description`).
  @inline(__always)
  mutating func put(_ values: AttributeValues, at index: Int) {
    switch values {
    case .int8(let v): put(integer: v[index])
    case .uint8(let v): put(integer: v[index])
    case .int16(let v): put(integer: v[index])
    case .uint16(let v): put(integer: v[index])
    case .int32(let v): put(integer: v[index])
    case .uint32(let v): put(integer: v[index])
    case .float32(let v): put(v[index])
    case .float64(let v): for byte in v[index].description.utf8.prefix(24) { put(byte) }
    }
  }
}
