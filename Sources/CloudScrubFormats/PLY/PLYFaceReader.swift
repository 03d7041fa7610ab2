import CloudScrubCore

/// Reads the triangles of a binary PLY mesh: the `face` element's list of vertex
/// indices (`vertex_indices`, or `vertex_index` as some writers name it), polygons cut
/// into fans from their first vertex. Other properties of a face are walked past.
enum PLYFaceReader {
  /// The face element's index of `header`, and its list property's; nil when the file
  /// has no faces.
  static func faceList(in header: PLYHeader) -> (element: Int, property: Int)? {
    guard let element = header.elements.firstIndex(where: { $0.name == "face" }) else {
      return nil
    }
    let properties = header.elements[element].properties
    guard
      let property = properties.firstIndex(where: {
        guard case .list = $0.kind else { return false }
        return $0.name == "vertex_indices" || $0.name == "vertex_index"
      })
    else { return nil }
    return (element, property)
  }

  /// The triangles of a binary PLY's faces; nil when the file has no faces.
  ///
  /// - Throws: `PLYError` for a face that runs past the end of the file, has a negative
  ///   count, or names a vertex the file does not have.
  static func triangles(_ bytes: UnsafeRawBufferPointer, header: PLYHeader, vertexCount: Int)
    throws(PLYError) -> [SIMD3<UInt32>]?
  {
    guard header.format != .ascii, let (faceIndex, listIndex) = faceList(in: header),
      let base = bytes.baseAddress
    else { return nil }
    let swapped = header.format == .binaryBigEndian
    var offset = header.bodyOffset
    for element in header.elements.prefix(faceIndex) {
      try PLYBinaryReader.checkMinimumSize(element, offset: offset, fileSize: bytes.count)
      offset = try PLYBinaryReader.skip(element, offset: offset, bytes: bytes, swapped: swapped)
    }
    let faces = header.elements[faceIndex]
    try PLYBinaryReader.checkMinimumSize(faces, offset: offset, fileSize: bytes.count)
    var triangles: [SIMD3<UInt32>] = []
    // Most faces are triangles; the count was checked against the file's size.
    triangles.reserveCapacity(faces.count)
    var cursor = offset
    for face in 0..<faces.count {
      let start = cursor
      cursor = try PLYBinaryReader.recordEnd(
        faces, index: face, at: start, bytes: bytes, swapped: swapped)
      var at = start
      for (k, property) in faces.properties.enumerated() {
        switch property.kind {
        case .scalar(let type):
          at += type.byteCount
        case .list(let countType, let itemType):
          let count = Int(countType.loadDouble(from: base + at, swapped: swapped))
          at += countType.byteCount
          if k == listIndex, count >= 3 {
            var corners: [UInt32] = []
            corners.reserveCapacity(count)
            for item in 0..<count {
              let value = itemType.loadDouble(
                from: base + at + item * itemType.byteCount, swapped: swapped)
              guard value >= 0, value < Double(vertexCount) else {
                throw .badFaceIndex(face: face, index: value, vertexCount: vertexCount)
              }
              corners.append(UInt32(value))
            }
            for corner in 2..<count {
              triangles.append(SIMD3(corners[0], corners[corner - 1], corners[corner]))
            }
          }
          at += count * itemType.byteCount
        }
      }
    }
    return triangles
  }
}

extension PLYHeader {
  /// Whether the file is a mesh: a `face` element with a list of vertex indices.
  public var hasFaces: Bool { PLYFaceReader.faceList(in: self) != nil }
}
