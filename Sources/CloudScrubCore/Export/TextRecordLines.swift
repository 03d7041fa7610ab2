import Foundation

/// Text records written on every core: a range of points is cut into pieces, each
/// piece's lines are written into a buffer of its own, and the buffers are appended in
/// order, so the bytes are those of one pass over the points.
enum TextRecordLines {
  /// Points a piece holds at least: smaller ranges are written on the calling thread.
  static let minimumPerPiece = 4096

  /// Appends `line(index, &bytes)` for every index of `range` to `buffer`, in order.
  static func append(
    _ range: Range<Int>, to buffer: inout [UInt8],
    line: @Sendable (Int, inout [UInt8]) -> Void
  ) {
    let pieces = min(
      2 * ProcessInfo.processInfo.activeProcessorCount, range.count / minimumPerPiece)
    guard pieces > 1 else {
      for index in range { line(index, &buffer) }
      return
    }
    let outputs = ParallelSlots<[UInt8]>(count: pieces, initial: [])
    Parallel.forEachRange(pieces, minimumPerTask: 1) { tasks in
      for piece in tasks {
        let start = range.lowerBound + range.count * piece / pieces
        let end = range.lowerBound + range.count * (piece + 1) / pieces
        outputs.modify(piece) { bytes in
          bytes.reserveCapacity((end - start) * 64)
          for index in start..<end { line(index, &bytes) }
        }
      }
    }
    for piece in 0..<pieces { buffer.append(contentsOf: outputs[piece]) }
  }
}

extension AttributeValues {
  /// Appends the value at `index` as text: integers in decimal, floats in their
  /// shortest form that reads back to the same bits (`FloatText`; doubles through
  /// `description`).
  @inline(__always)
  func appendText(at index: Int, to buffer: inout [UInt8]) {
    switch self {
    case .int8(let v): FloatText.append(integer: v[index], to: &buffer)
    case .uint8(let v): FloatText.append(integer: v[index], to: &buffer)
    case .int16(let v): FloatText.append(integer: v[index], to: &buffer)
    case .uint16(let v): FloatText.append(integer: v[index], to: &buffer)
    case .int32(let v): FloatText.append(integer: v[index], to: &buffer)
    case .uint32(let v): FloatText.append(integer: v[index], to: &buffer)
    case .float32(let v): FloatText.append(v[index], to: &buffer)
    case .float64(let v): buffer.append(contentsOf: v[index].description.utf8)
    }
  }
}
