import CloudScrubCore
import Foundation

/// Reads the points of a binary PLY file's vertex records straight from its memory
/// map, by record number, so that a loader can take an even sample of a huge file
/// first (every k-th record) and the rest afterwards, without reading the file whole.
///
/// Only what the viewer shows is decoded: position, colour, and a `uchar confidence`
/// property when there is one (`FramePoints`). It applies to binary files (either byte
/// order) whose vertex records have a fixed size (no list property) and whose elements
/// before the vertices have fixed sizes too; a file with a `frame` property (a PLY
/// timeline) or the fields of Gaussian splats is left to the whole-file reader, which
/// groups frames and converts splat colours.
public struct PLYVertexSampler: @unchecked Sendable {
  /// A field's byte offset inside a record and its type.
  struct Field {
    var offset: Int
    var type: ScalarType
  }

  /// The mapped file; the sampler keeps it alive.
  public let file: MappedFile
  public let header: PLYHeader
  /// The vertex records in the file.
  public let count: Int
  /// Bytes a vertex record takes.
  public let recordSize: Int
  /// The byte offset of the first vertex record.
  public let vertexOffset: Int
  let swapped: Bool
  let position: [Field?]
  let color: [Field]?
  let confidence: Field?
  /// The offset of x, y, z when they are three consecutive native-order floats, and of
  /// red, green, blue when they are three consecutive bytes: copied, not converted.
  let packedPositionOffset: Int?
  let packedColorOffset: Int?

  /// The sampler of `file`'s vertices, or nil when the file is not one it applies to
  /// (ASCII, list properties in or before the vertex element, a `frame` property,
  /// splats). The header is parsed here, and every element up to the vertices is
  /// checked to fit in the file before any count is trusted.
  ///
  /// - Throws: `PLYFileError` with the `PLYError` of a malformed header or of counts
  ///   that exceed the file, path last.
  public static func open(_ file: MappedFile) throws -> PLYVertexSampler? {
    do {
      let header = try PLYHeaderParser.parse(file.bytes)
      try file.checkIntact()
      return try PLYVertexSampler(file: file, header: header)
    } catch let error as PLYError {
      try file.checkIntact()
      throw PLYFileError(error, path: file.path)
    }
  }

  init?(file: MappedFile, header: PLYHeader) throws(PLYError) {
    guard header.format != .ascii, let vertexIndex = header.vertexElementIndex else {
      return nil
    }
    let element = header.elements[vertexIndex]
    let names = Set(element.properties.map(\.name))
    guard let size = element.fixedRecordSize, size > 0, !names.contains("frame"),
      !(names.contains("f_dc_0") && names.contains("opacity"))
    else { return nil }
    var offset = header.bodyOffset
    for before in header.elements[..<vertexIndex] {
      guard let beforeSize = before.fixedRecordSize else { return nil }
      try PLYBinaryReader.checkMinimumSize(before, offset: offset, fileSize: file.bytes.count)
      offset += before.count * beforeSize
    }
    try PLYBinaryReader.checkMinimumSize(element, offset: offset, fileSize: file.bytes.count)
    let layout = try PLYVertexLayout(element: element)
    var offsets: [Int] = []
    var types: [ScalarType] = []
    var running = 0
    for property in element.properties {
      guard case .scalar(let type) = property.kind else { return nil }
      offsets.append(running)
      types.append(type)
      running += type.byteCount
    }
    func field(_ index: Int) -> Field { Field(offset: offsets[index], type: types[index]) }
    self.file = file
    self.header = header
    count = element.count
    recordSize = size
    vertexOffset = offset
    swapped = header.format == .binaryBigEndian
    position = layout.position.map { $0.map(field) }
    color = layout.color?.map(field)
    confidence = element.properties.firstIndex {
      $0.name == "confidence" && $0.kind == .scalar(.uint8)
    }.map(field)
    packedPositionOffset = Self.packedOffset(position, type: .float32, swapped: swapped)
    packedColorOffset = Self.packedOffset(color ?? [], type: .uint8, swapped: false)
  }

  /// The first field's offset when the three fields are consecutive values of `type`.
  private static func packedOffset(_ fields: [Field?], type: ScalarType, swapped: Bool) -> Int? {
    let present = fields.compactMap { $0 }
    guard !swapped, present.count == 3, present.allSatisfy({ $0.type == type }),
      present[1].offset == present[0].offset + type.byteCount,
      present[2].offset == present[1].offset + type.byteCount
    else { return nil }
    return present[0].offset
  }

  /// The byte offset just past the vertex records.
  public var vertexEnd: Int { vertexOffset + count * recordSize }

  /// The points of the records `indices` (each below `count`), in that order, appended
  /// to `points`. Reads the mapping directly; a file truncated meanwhile reads zeros,
  /// which `checkIntact(afterRecord:)` then reports.
  public func read(_ indices: some Sequence<Int>, into points: inout FramePoints) {
    guard let base = file.bytes.baseAddress else { return }
    let records = base + vertexOffset
    let swapped = swapped
    for index in indices {
      let record = records + index * recordSize
      if let offset = packedPositionOffset {
        points.positions.append(
          Point3(
            record.loadUnaligned(fromByteOffset: offset, as: Float.self),
            record.loadUnaligned(fromByteOffset: offset + 4, as: Float.self),
            record.loadUnaligned(fromByteOffset: offset + 8, as: Float.self)))
      } else {
        var xyz = SIMD3<Float>(0, 0, 0)
        for axis in 0..<3 {
          guard let field = position[axis] else { continue }
          xyz[axis] = Float(field.type.loadDouble(from: record + field.offset, swapped: swapped))
        }
        points.positions.append(Point3(xyz.x, xyz.y, xyz.z))
      }
      if let offset = packedColorOffset {
        points.colors.append(
          RGB8(
            record.load(fromByteOffset: offset, as: UInt8.self),
            record.load(fromByteOffset: offset + 1, as: UInt8.self),
            record.load(fromByteOffset: offset + 2, as: UInt8.self)))
      } else if let color {
        func channel(_ field: Field) -> UInt8 {
          colorByte(
            fromDouble: field.type.loadDouble(from: record + field.offset, swapped: swapped),
            type: field.type)
        }
        points.colors.append(RGB8(channel(color[0]), channel(color[1]), channel(color[2])))
      } else {
        points.colors.append(FramePoints.noColor)
      }
      points.confidence.append(
        confidence.map { record.load(fromByteOffset: $0.offset, as: UInt8.self) }
          ?? FramePoints.unknownConfidence)
    }
  }

  /// Throws when the file was found shorter than when it was mapped, naming the vertex
  /// record and byte offset where it now ends.
  ///
  /// - Throws: `PLYFileError` whose reason is `.truncated`, path last.
  public func checkIntact() throws {
    guard file.wasTruncated else { return }
    var info = stat()
    let size = stat(file.path, &info) == 0 ? Int(info.st_size) : 0
    let index = min(count, max(0, (size - vertexOffset) / recordSize))
    throw PLYFileError(
      .truncated(
        element: header.elements[vertexElementPosition].name, index: index, byteOffset: size),
      path: file.path)
  }

  /// Walks the elements after the vertices, so that a file cut inside them (a face
  /// list, say) is reported as the whole-file reader reports it.
  ///
  /// - Throws: `PLYFileError`, path last.
  public func checkElementsAfterVertices() throws {
    var offset = vertexEnd
    let swapped = swapped
    do {
      for element in header.elements[(vertexElementPosition + 1)...] {
        try PLYBinaryReader.checkMinimumSize(element, offset: offset, fileSize: file.bytes.count)
        offset = try PLYBinaryReader.skip(
          element, offset: offset, bytes: file.bytes, swapped: swapped)
      }
    } catch {
      try checkIntact()
      throw PLYFileError(error, path: file.path)
    }
    try checkIntact()
  }

  private var vertexElementPosition: Int { header.vertexElementIndex ?? 0 }
}

extension PLYVertexSampler: PointRecordSampler {
  public var recordsOffset: Int { vertexOffset }

  public func read(records: Range<Int>, into points: inout FramePoints) {
    read(records, into: &points)
  }

  public func checkAfterRecords() throws { try checkElementsAfterVertices() }
}
