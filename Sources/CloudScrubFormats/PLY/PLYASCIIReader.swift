import CloudScrubCore

/// Reads the body of an ASCII PLY file as a stream of whitespace-separated tokens.
///
/// Records need not be one per line: any run of spaces, tabs, `\r` or `\n` separates
/// tokens, so leading and trailing spaces and CRLF line ends are fine. Numbers are parsed
/// in place from the mapped bytes; no token is copied into a string.
enum PLYASCIIReader {
  /// What to do with one vertex property's token.
  private enum Action {
    /// Store as a float into slot 0…2 (position) or 3…5 (normal).
    case component(slot: Int, type: ScalarType)
    case color(channel: Int, type: ScalarType)
    case attribute(column: Int, type: ScalarType)
    case skip(type: ScalarType)
    case skipList(count: ScalarType, item: ScalarType)
  }

  static func read(
    _ bytes: UnsafeRawBufferPointer, header: PLYHeader, progress: ProgressHandler?
  ) throws(PLYError) -> PointCloud {
    guard let vertexIndex = header.vertexElementIndex else {
      // A header with no elements at all describes an empty cloud.
      if header.elements.isEmpty { return PointCloud() }
      throw .missingVertexElement(elements: header.elements.map(\.name))
    }
    let layout = try PLYVertexLayout(element: header.elements[vertexIndex])
    let headerLines = bytes[0..<header.bodyOffset].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    var tokens = ASCIITokenizer(bytes: bytes, start: header.bodyOffset, line: headerLines + 1)
    var cloud = PointCloud()
    for (index, element) in header.elements.enumerated() {
      try checkMinimumSize(element, tokens: tokens)
      if index == vertexIndex && ASCIIVertexReader.applies(to: element) {
        let reader = ASCIIVertexReader(bytes: bytes, element: element, layout: layout)
        cloud = try reader.read(tokens: &tokens, progress: progress)
      } else if index == vertexIndex {
        cloud = try readVertices(element, layout: layout, tokens: &tokens, progress: progress)
      } else if element.properties.isEmpty {
        // Records without properties hold no tokens: there is nothing to read, however
        // many the header claims (walking 2^63 empty records would never end).
        continue
      } else {
        let actions = element.properties.map { property -> Action in
          switch property.kind {
          case .scalar(let type): .skip(type: type)
          case .list(let count, let item): .skipList(count: count, item: item)
          }
        }
        let start = tokens
        var scratch = RecordScratch()
        do {
          for record in 0..<element.count {
            try readRecord(
              element, record: record, actions: actions, tokens: &tokens, scratch: &scratch)
          }
        } catch {
          // Past the points, an element whose records disagree with its header (some
          // writers add values at the ends of face lines) is read past line by line,
          // one record a line, when the file has that many lines left.
          guard index > vertexIndex else { throw error }
          tokens = start
          guard tokens.skipLines(element.count) else { throw error }
        }
      }
    }
    return cloud
  }

  /// Throws when the tokens claimed could not fit in the bytes left (each token takes
  /// at least one character and one separator).
  private static func checkMinimumSize(
    _ element: PLYElement, tokens: ASCIITokenizer
  ) throws(PLYError) {
    let available = tokens.bytes.count - tokens.cursor
    let (tokenCount, overflow) = element.count.multipliedReportingOverflow(
      by: element.minimumTokenCount)
    if overflow || tokenCount > (available + 1) / 2 {
      throw .countExceedsFile(
        element: element.name, count: element.count,
        minimumBytes: overflow ? Int.max : max(tokenCount * 2 - 1, 0), availableBytes: available)
    }
  }

  /// Values of one vertex record before they are stored.
  private struct RecordScratch {
    var components: (Float, Float, Float, Float, Float, Float) = (0, 0, 0, 0, 0, 0)
    var color = RGB8(0, 0, 0)
    var attributes: [Double] = []
  }

  /// Reads vertex records that hold lists, one token at a time.
  private static func readVertices(
    _ element: PLYElement, layout: PLYVertexLayout, tokens: inout ASCIITokenizer,
    progress: ProgressHandler?
  ) throws(PLYError) -> PointCloud {
    var actions = element.properties.map { property -> Action in
      switch property.kind {
      case .scalar(let type): .skip(type: type)
      case .list(let count, let item): .skipList(count: count, item: item)
      }
    }
    func type(_ property: Int) -> ScalarType {
      if case .scalar(let type) = element.properties[property].kind { return type }
      preconditionFailure("the vertex layout only selects scalar properties")
    }
    for (slot, property) in layout.position.enumerated() {
      guard let property else { continue }
      actions[property] = .component(slot: slot, type: type(property))
    }
    for (slot, property) in (layout.normal ?? []).enumerated() {
      actions[property] = .component(slot: 3 + slot, type: type(property))
    }
    for (channel, property) in (layout.color ?? []).enumerated() {
      actions[property] = .color(channel: channel, type: type(property))
    }
    for (column, property) in layout.attributes.enumerated() {
      actions[property] = .attribute(column: column, type: type(property))
    }

    let count = element.count
    var positions: [Point3] = []
    positions.reserveCapacity(count)
    var colors: [RGB8] = []
    if layout.color != nil { colors.reserveCapacity(count) }
    var normals: [Point3] = []
    if layout.normal != nil { normals.reserveCapacity(count) }
    var attributeColumns = [[Double]](repeating: [], count: layout.attributes.count)
    for column in attributeColumns.indices { attributeColumns[column].reserveCapacity(count) }

    var scratch = RecordScratch()
    scratch.attributes = [Double](repeating: 0, count: layout.attributes.count)
    let progressStep = max(count / 100, 1 << 16)
    for record in 0..<count {
      try readRecord(element, record: record, actions: actions, tokens: &tokens, scratch: &scratch)
      let c = scratch.components
      positions.append(Point3(c.0, c.1, c.2))
      if layout.normal != nil { normals.append(Point3(c.3, c.4, c.5)) }
      if layout.color != nil { colors.append(scratch.color) }
      for column in attributeColumns.indices {
        attributeColumns[column].append(scratch.attributes[column])
      }
      if record % progressStep == progressStep - 1 { progress?(Double(record + 1) / Double(count)) }
    }
    let attributes = zip(layout.attributes, attributeColumns).map { property, values in
      PointAttribute(
        name: PLYVertexLayout.attributeName(for: element.properties[property].name),
        values: AttributeValues(converting: values, to: type(property)))
    }
    return PointCloud(
      positions: positions, colors: layout.color == nil ? nil : colors,
      normals: layout.normal == nil ? nil : normals, attributes: attributes)
  }

  @inline(__always)
  private static func readRecord(
    _ element: PLYElement, record: Int, actions: [Action], tokens: inout ASCIITokenizer,
    scratch: inout RecordScratch
  ) throws(PLYError) {
    for (property, action) in actions.enumerated() {
      guard let token = tokens.next() else {
        throw .truncated(element: element.name, index: record, byteOffset: tokens.bytes.count)
      }
      func bad() -> PLYError {
        .badNumber(
          token: token.text, line: tokens.tokenLine, element: element.name,
          property: element.properties[property].name)
      }
      switch action {
      case .component(let slot, let type):
        guard let value = token.float(as: type) else { throw bad() }
        switch slot {
        case 0: scratch.components.0 = value
        case 1: scratch.components.1 = value
        case 2: scratch.components.2 = value
        case 3: scratch.components.3 = value
        case 4: scratch.components.4 = value
        default: scratch.components.5 = value
        }
      case .color(let channel, let type):
        guard let value = token.double(as: type) else { throw bad() }
        let byte = colorByte(fromDouble: value, type: type)
        switch channel {
        case 0: scratch.color.r = byte
        case 1: scratch.color.g = byte
        default: scratch.color.b = byte
        }
      case .attribute(let column, let type):
        guard let value = token.double(as: type) else { throw bad() }
        scratch.attributes[column] = value
      case .skip(let type):
        guard token.double(as: type) != nil else { throw bad() }
      case .skipList(let countType, let itemType):
        guard let countValue = token.double(as: countType) else { throw bad() }
        guard countValue >= 0 else {
          throw .invalidListCount(
            element: element.name, index: record, count: Int(countValue),
            byteOffset: token.offset)
        }
        for _ in 0..<Int(countValue) {
          guard let item = tokens.next() else {
            throw .truncated(element: element.name, index: record, byteOffset: tokens.bytes.count)
          }
          guard item.double(as: itemType) != nil else {
            throw .badNumber(
              token: item.text, line: tokens.tokenLine, element: element.name,
              property: element.properties[property].name)
          }
        }
      }
    }
  }
}

extension AttributeValues {
  /// Narrows exactly parsed values (each already within `type`'s range) to `type`.
  init(converting values: [Double], to type: ScalarType) {
    switch type {
    case .int8: self = .int8(values.map { Int8($0) })
    case .uint8: self = .uint8(values.map { UInt8($0) })
    case .int16: self = .int16(values.map { Int16($0) })
    case .uint16: self = .uint16(values.map { UInt16($0) })
    case .int32: self = .int32(values.map { Int32($0) })
    case .uint32: self = .uint32(values.map { UInt32($0) })
    case .float32: self = .float32(values.map { Float($0) })
    case .float64: self = .float64(values)
    }
  }
}
