import CloudScrubCore

/// Reads the body of a binary PLY file (either byte order) from memory.
///
/// Every element's size is checked against the bytes left before anything is
/// allocated from its count. When the vertex records have a fixed size (no list
/// properties), each field is gathered in one pass with the record stride; x, y, z as
/// little-endian floats and colours as bytes are copied without conversion.
enum PLYBinaryReader {
  static func read(
    _ bytes: UnsafeRawBufferPointer, header: PLYHeader, progress: ProgressHandler?
  ) throws(PLYError) -> PointCloud {
    let swapped = header.format == .binaryBigEndian
    guard let vertexIndex = header.vertexElementIndex else {
      // A header with no elements at all describes an empty cloud.
      if header.elements.isEmpty { return PointCloud() }
      throw .missingVertexElement(elements: header.elements.map(\.name))
    }
    let layout = try PLYVertexLayout(element: header.elements[vertexIndex])
    var offset = header.bodyOffset
    var cloud = PointCloud()
    for (index, element) in header.elements.enumerated() {
      try checkMinimumSize(element, offset: offset, fileSize: bytes.count)
      if index == vertexIndex {
        let vertexStart = offset
        offset = try skip(element, offset: offset, bytes: bytes, swapped: swapped)
        cloud = readVertices(
          bytes, element: element, layout: layout, start: vertexStart, swapped: swapped,
          progress: progress)
      } else {
        offset = try skip(element, offset: offset, bytes: bytes, swapped: swapped)
      }
    }
    return cloud
  }

  /// Throws when `element.count` records of the smallest possible size would not fit.
  static func checkMinimumSize(
    _ element: PLYElement, offset: Int, fileSize: Int
  ) throws(PLYError) {
    let available = fileSize - offset
    let (needed, overflow) = element.count.multipliedReportingOverflow(
      by: element.minimumRecordSize)
    if overflow || needed > available {
      throw .countExceedsFile(
        element: element.name, count: element.count,
        minimumBytes: overflow ? Int.max : needed, availableBytes: available)
    }
  }

  /// Returns the offset just past `element`'s records, walking list properties.
  static func skip(
    _ element: PLYElement, offset: Int, bytes: UnsafeRawBufferPointer, swapped: Bool
  ) throws(PLYError) -> Int {
    if let size = element.fixedRecordSize {
      return offset + element.count * size  // checked by checkMinimumSize
    }
    var cursor = offset
    for index in 0..<element.count {
      cursor = try recordEnd(element, index: index, at: cursor, bytes: bytes, swapped: swapped)
    }
    return cursor
  }

  /// The offset just past one record of `element` that starts at `start`.
  @inline(__always)
  static func recordEnd(
    _ element: PLYElement, index: Int, at start: Int, bytes: UnsafeRawBufferPointer,
    swapped: Bool
  ) throws(PLYError) -> Int {
    var cursor = start
    for property in element.properties {
      switch property.kind {
      case .scalar(let type):
        cursor += type.byteCount
      case .list(let countType, let itemType):
        guard cursor + countType.byteCount <= bytes.count else {
          throw .truncated(element: element.name, index: index, byteOffset: bytes.count)
        }
        let countValue = countType.loadDouble(
          from: bytes.baseAddress.unsafelyUnwrapped + cursor, swapped: swapped)
        guard countValue >= 0 else {
          throw .invalidListCount(
            element: element.name, index: index, count: Int(countValue), byteOffset: cursor)
        }
        cursor += countType.byteCount + Int(countValue) * itemType.byteCount
      }
      guard cursor <= bytes.count else {
        throw .truncated(element: element.name, index: index, byteOffset: bytes.count)
      }
    }
    return cursor
  }

  // MARK: - Vertices

  private static func readVertices(
    _ bytes: UnsafeRawBufferPointer, element: PLYElement, layout: PLYVertexLayout, start: Int,
    swapped: Bool, progress: ProgressHandler?
  ) -> PointCloud {
    guard let base = bytes.baseAddress, element.count > 0 else {
      return PLYColumnGather<PLYFixedRecords>.emptyCloud(element: element, layout: layout)
    }
    if element.fixedRecordSize != nil {
      let source = PLYFixedRecords(base: base + start, element: element)
      return PLYColumnGather(
        source: source, element: element, layout: layout, swapped: swapped, progress: progress
      ).cloud()
    }
    // Lists make records vary in size: index every record's start first.
    let source = PLYRecordTable(base: base, start: start, element: element, swapped: swapped)
    return PLYColumnGather(
      source: source, element: element, layout: layout, swapped: swapped, progress: progress
    ).cloud()
  }
}
