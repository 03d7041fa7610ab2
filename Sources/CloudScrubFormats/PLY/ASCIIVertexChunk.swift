import CloudScrubCore

/// Where one vertex property's value is stored.
enum ASCIIField {
  case position(Int)
  case normal(Int)
  case color(Int)
  case attribute(Int)
  case skip
}

/// Destination storage for vertex values, shared by chunk workers that write disjoint
/// record ranges.
struct ASCIIVertexColumns: @unchecked Sendable {
  /// Three floats a record.
  let positions: UnsafeMutablePointer<Float>
  /// Three floats a record, when the file has normals.
  let normals: UnsafeMutablePointer<Float>?
  /// Three bytes a record, when the file has colours.
  let colors: UnsafeMutablePointer<UInt8>?
  /// One value a record for each attribute, exact in `Double` for every PLY type.
  let attributes: [UnsafeMutablePointer<Double>]
}

/// Parses a run of vertex records whose properties are all scalars, storing each
/// value straight into its column.
///
/// Position, line and decimal scanning stay in local variables for the whole run: this
/// is the loop an ASCII file's size is paid in.
struct ASCIIVertexChunk: @unchecked Sendable {
  enum Outcome {
    /// Every record was read; the scan ended at `cursor` on `line`.
    case done(cursor: Int, line: Int)
    case failed(PLYError)
    /// With `onePerLine`, a record did not sit on a line of its own.
    case misaligned
  }

  let base: UnsafePointer<UInt8>
  let element: PLYElement
  let fields: [(field: ASCIIField, type: ScalarType)]
  let columns: ASCIIVertexColumns

  /// Reads records `records` from byte `start` (on line `line`) up to byte `end`.
  ///
  /// With `onePerLine`, record k must lie wholly on line `line + k` and nothing but
  /// whitespace may follow the last record before `end`; otherwise the outcome is
  /// `.misaligned`.
  func parse(
    from start: Int, to end: Int, line startLine: Int, records: Range<Int>, onePerLine: Bool,
    progress: ProgressHandler? = nil
  ) -> Outcome {
    var i = start
    var line = startLine
    let progressStep = 1 << 16
    return fields.withUnsafeBufferPointer { fields in
      for record in records {
        let expectedLine = startLine + (record - records.lowerBound)
        for (property, plan) in fields.enumerated() {
          while i < end && base[i] <= 32 {
            if base[i] == 10 { line &+= 1 }
            i &+= 1
          }
          if onePerLine && (i >= end || line != expectedLine) { return .misaligned }
          guard i < end else {
            return .failed(.truncated(element: element.name, index: record, byteOffset: end))
          }
          let tokenStart = i
          var decimal = ASCIINumberParser.scanDecimal(base, &i, end)
          if i < end && base[i] > 32 {
            decimal = nil
            while i < end && base[i] > 32 { i &+= 1 }
          }
          guard
            store(
              plan.field, plan.type, record: record, decimal: decimal,
              token: UnsafeBufferPointer(start: base + tokenStart, count: i - tokenStart))
          else {
            return .failed(
              .badNumber(
                token: String(
                  decoding: UnsafeBufferPointer(
                    start: base + tokenStart, count: min(i - tokenStart, 64)), as: UTF8.self),
                line: line, element: element.name, property: element.properties[property].name))
          }
        }
        if let progress, record % progressStep == progressStep - 1 {
          progress(Double(record + 1 - records.lowerBound) / Double(records.count))
        }
      }
      if onePerLine {
        while i < end && base[i] <= 32 {
          if base[i] == 10 { line += 1 }
          i += 1
        }
        if i < end { return .misaligned }
      }
      return .done(cursor: i, line: line)
    }
  }

  /// Converts one token and stores it; `false` when it is not a number of `type`.
  @inline(__always)
  private func store(
    _ field: ASCIIField, _ type: ScalarType, record: Int, decimal: DecimalParts?,
    token: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let pointer = token.baseAddress.unsafelyUnwrapped
    if type == .float32 {
      guard
        let value = decimal.flatMap(ASCIINumberParser.float)
          ?? ASCIINumberParser.parseFloat(pointer, token.count)
      else { return false }
      storeFloat(value, field, type, record: record)
      return true
    }
    if type == .uint8, case .color(let c) = field, let decimal, decimal.exponent == 0,
      !decimal.negative, decimal.significand <= 255
    {
      columns.colors.unsafelyUnwrapped[record &* 3 &+ c] = UInt8(
        truncatingIfNeeded: decimal.significand)
      return true
    }
    let value: Double
    if type == .float64 {
      guard
        let parsed = decimal.flatMap(ASCIINumberParser.double)
          ?? ASCIINumberParser.parseDouble(pointer, token.count)
      else { return false }
      value = parsed
    } else {
      guard
        let parsed = decimal.map(ASCIINumberParser.integer)
          ?? ASCIINumberParser.parseInteger(pointer, token.count),
        type.integerRange.contains(parsed)
      else { return false }
      value = Double(parsed)
    }
    switch field {
    case .position(let c): columns.positions[record * 3 + c] = Float(value)
    case .normal(let c): columns.normals.unsafelyUnwrapped[record * 3 + c] = Float(value)
    case .color(let c):
      columns.colors.unsafelyUnwrapped[record * 3 + c] = colorByte(fromDouble: value, type: type)
    case .attribute(let k): columns.attributes[k][record] = value
    case .skip: break
    }
    return true
  }

  @inline(__always)
  private func storeFloat(_ value: Float, _ field: ASCIIField, _ type: ScalarType, record: Int) {
    switch field {
    case .position(let c): columns.positions[record * 3 + c] = value
    case .normal(let c): columns.normals.unsafelyUnwrapped[record * 3 + c] = value
    case .color(let c):
      columns.colors.unsafelyUnwrapped[record * 3 + c] = colorByte(
        fromDouble: Double(value), type: type)
    case .attribute(let k): columns.attributes[k][record] = Double(value)
    case .skip: break
    }
  }
}
