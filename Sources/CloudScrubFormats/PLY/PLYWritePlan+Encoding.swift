import CloudScrubCore

// MARK: - Binary

extension PLYWritePlan {
  /// Encodes `records` into `buffer` (resized to fit) in binary, one field at a time.
  func encodeBinary(_ records: Range<Int>, swapped: Bool, into buffer: inout [UInt8]) {
    let stride = recordSize
    let needed = records.count * stride
    if buffer.count != needed { buffer = [UInt8](repeating: 0, count: needed) }
    buffer.withUnsafeMutableBytes { out in
      let base = out.baseAddress.unsafelyUnwrapped
      var offset = 0
      storePoints(cloud.positions, records, base + offset, stride: stride, swapped: swapped)
      offset += 12
      if let colors = cloud.colors {
        colors.withUnsafeBufferPointer { colors in
          for (row, index) in records.enumerated() {
            let color = colors[index]
            let pointer = base + row * stride + offset
            pointer.storeBytes(of: color.r, as: UInt8.self)
            pointer.storeBytes(of: color.g, toByteOffset: 1, as: UInt8.self)
            pointer.storeBytes(of: color.b, toByteOffset: 2, as: UInt8.self)
          }
        }
        offset += 3
      }
      if writesNormals, let normals = cloud.normals {
        storePoints(normals, records, base + offset, stride: stride, swapped: swapped)
        offset += 12
      }
      for attribute in attributes {
        let column = base + offset
        switch attribute.values {
        case .int8(let v): storeColumn(v, records, column, stride: stride, swapped: swapped)
        case .uint8(let v): storeColumn(v, records, column, stride: stride, swapped: swapped)
        case .int16(let v): storeColumn(v, records, column, stride: stride, swapped: swapped)
        case .uint16(let v): storeColumn(v, records, column, stride: stride, swapped: swapped)
        case .int32(let v): storeColumn(v, records, column, stride: stride, swapped: swapped)
        case .uint32(let v): storeColumn(v, records, column, stride: stride, swapped: swapped)
        case .float32(let v): storeColumn(v, records, column, stride: stride, swapped: swapped)
        case .float64(let v): storeColumn(v, records, column, stride: stride, swapped: swapped)
        }
        offset += attribute.values.scalarType.byteCount
      }
    }
  }

  private func storePoints(
    _ points: [Point3], _ records: Range<Int>, _ column: UnsafeMutableRawPointer, stride: Int,
    swapped: Bool
  ) {
    points.withUnsafeBufferPointer { points in
      let source = UnsafeRawPointer(points.baseAddress.unsafelyUnwrapped)
      for (row, index) in records.enumerated() {
        let pointer = column + row * stride
        if swapped {
          for component in 0..<3 {
            let bits = source.load(fromByteOffset: index * 12 + component * 4, as: UInt32.self)
            pointer.storeBytes(of: bits.byteSwapped, toByteOffset: component * 4, as: UInt32.self)
          }
        } else {
          pointer.copyMemory(from: source + index * 12, byteCount: 12)
        }
      }
    }
  }

  private func storeColumn<T: PLYScalar>(
    _ values: [T], _ records: Range<Int>, _ column: UnsafeMutableRawPointer, stride: Int,
    swapped: Bool
  ) {
    values.withUnsafeBufferPointer { values in
      for (row, index) in records.enumerated() {
        values[index].store(to: column + row * stride, swapped: swapped)
      }
    }
  }
}

// MARK: - ASCII

extension PLYWritePlan {
  /// Encodes `records` into `buffer` as text, one record a line. Floats are written in
  /// their shortest form that reads back to the same bits.
  func encodeASCII(_ records: Range<Int>, into buffer: inout [UInt8]) {
    buffer.removeAll(keepingCapacity: true)
    for index in records {
      let p = cloud.positions[index]
      append(p.x, &buffer, separator: false)
      append(p.y, &buffer)
      append(p.z, &buffer)
      if let colors = cloud.colors {
        let c = colors[index]
        appendInteger(c.r, &buffer)
        appendInteger(c.g, &buffer)
        appendInteger(c.b, &buffer)
      }
      if writesNormals, let normals = cloud.normals {
        let n = normals[index]
        append(n.x, &buffer)
        append(n.y, &buffer)
        append(n.z, &buffer)
      }
      for attribute in attributes {
        switch attribute.values {
        case .int8(let v): appendInteger(v[index], &buffer)
        case .uint8(let v): appendInteger(v[index], &buffer)
        case .int16(let v): appendInteger(v[index], &buffer)
        case .uint16(let v): appendInteger(v[index], &buffer)
        case .int32(let v): appendInteger(v[index], &buffer)
        case .uint32(let v): appendInteger(v[index], &buffer)
        case .float32(let v): append(v[index], &buffer)
        case .float64(let v): append(v[index], &buffer)
        }
      }
      buffer.append(UInt8(ascii: "\n"))
    }
  }

  /// Appends a float in its shortest form that reads back to the same bits.
  @inline(__always)
  private func append(
    _ value: some BinaryFloatingPoint & CustomStringConvertible, _ buffer: inout [UInt8],
    separator: Bool = true
  ) {
    if separator { buffer.append(UInt8(ascii: " ")) }
    buffer.append(contentsOf: value.description.utf8)
  }

  /// Appends an integer of at most 32 bits in decimal without making a string.
  @inline(__always)
  private func appendInteger(_ value: some FixedWidthInteger, _ buffer: inout [UInt8]) {
    assert(value.bitWidth <= 32, "attribute integers have at most 32 bits")
    buffer.append(UInt8(ascii: " "))
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    var magnitude = UInt32(truncatingIfNeeded: value.magnitude)
    var digits: (UInt64, UInt64) = (0, 0)  // 16 bytes of scratch; 32 bits need 10
    withUnsafeMutableBytes(of: &digits) { scratch in
      var first = 16
      repeat {
        first -= 1
        scratch[first] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      buffer.append(contentsOf: scratch[first...])
    }
  }
}
