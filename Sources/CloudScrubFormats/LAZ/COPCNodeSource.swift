import CloudScrubCore

/// A COPC file read node by node, for the window's level load (`OctreeLevelLoad`): each
/// node of the hierarchy is one LAZ chunk, decoded on its own into positions and
/// colours (or intensities, for points without colour).
public struct COPCNodeSource: OctreeNodeSource, @unchecked Sendable {
  /// The mapped file; the source keeps it alive.
  public let file: MappedFile
  public let header: LASReader.Header
  public let hierarchy: LASCOPCHierarchy
  public let nodes: [OctreeNode]
  private let items: [LAZParameters.Item]
  private let colorOffset: Int?
  /// The colours' shift to 8 bits, judged on the root level (`LASReader.colorShift`).
  private var colorShift: UInt16 = 8

  /// Opens `file` as COPC: its header, VLRs and hierarchy are read and checked, and the
  /// root level is decoded to judge its colours. Nil for a LAS or LAZ file that is not
  /// COPC, or whose hierarchy cannot be read (it is then read whole, as LAZ).
  ///
  /// - Throws: `LASError` for a header, VLRs or compression that cannot be read.
  public static func open(_ file: MappedFile) throws -> COPCNodeSource? {
    do {
      let opened = try LASReader.open(file.bytes)
      guard let hierarchy = opened.header.copc, !hierarchy.entries.isEmpty,
        let payload = opened.vlrs.laszip
      else { return nil }
      let parameters = try LAZParameters(payload)
      guard parameters.compressor == .layeredChunked,
        parameters.recordLength == opened.header.recordLength
      else { return nil }
      try LAZLayeredChunk.check(parameters.items)
      var source = COPCNodeSource(
        file: file, header: opened.header, hierarchy: hierarchy, items: parameters.items)
      if let offset = source.colorOffset {
        var highest: UInt16 = 0
        for index in source.nodes.indices where source.nodes[index].level == 0 {
          try source.withRecords(of: index) { records, points in
            let shift = LASReader.colorShift(
              records, points: points, length: opened.header.recordLength, at: offset)
            highest = max(highest, shift)
          }
        }
        source.colorShift = highest
      }
      return source
    } catch {
      throw LASError(error, path: file.path)
    }
  }

  private init(
    file: MappedFile, header: LASReader.Header, hierarchy: LASCOPCHierarchy,
    items: [LAZParameters.Item]
  ) {
    self.file = file
    self.header = header
    self.hierarchy = hierarchy
    self.items = items
    nodes = hierarchy.entries.map { OctreeNode(level: $0.level, points: $0.points) }
    colorOffset = LASReader.colorOffsets[header.pointFormat]
  }

  /// Decodes node `index`'s chunk and hands its records to `body`.
  private func withRecords<R>(
    of index: Int, _ body: (UnsafeRawBufferPointer, Int) -> R
  ) throws(LASErrorReason) -> R {
    let node = hierarchy.entries[index]
    let length = header.recordLength
    let storage = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(1, node.points * length), alignment: 16)
    defer { storage.deallocate() }
    let chunk = UnsafeRawBufferPointer(
      rebasing: file.bytes[node.offset..<(node.offset + node.bytes)])
    if let problem = LAZLayeredChunk.decode(
      chunk, items: items, points: node.points, recordLength: length,
      into: storage.baseAddress.unsafelyUnwrapped)
    {
      throw .laz(
        "octree node \(node.level)-\(node.x)-\(node.y)-\(node.z) (its chunk at byte "
          + "\(node.offset)) is corrupt at point \(problem.point): \(problem.problem)")
    }
    return body(UnsafeRawBufferPointer(storage), node.points)
  }

  public func read(node index: Int) throws -> OctreeNode.Points {
    do {
      return try withRecords(of: index) { records, count in
        var points = FramePoints()
        points.positions = LASReader.positions(records, points: count, header: header)
        let length = header.recordLength
        let intensity = LASReader.intensities(records, points: count, length: length)
        if let colorOffset {
          points.colors = LASReader.colors(
            records, points: count, length: length, at: colorOffset, shift: colorShift)
        }
        return OctreeNode.Points(points: points, intensity: intensity)
      }
    } catch {
      throw LASError(error, path: file.path)
    }
  }
}
