import CloudScrubCore

/// The synthetic room corner at any size, written to a binary PLY file piece by piece,
/// so that a cloud of a billion points never has to fit in memory.
extension SyntheticCloud {
  /// Points each piece of a streamed scene holds (its own seed: `seed + piece`).
  public static let streamedPiecePoints = 1 << 20

  /// Writes `count` points of the scene to `path` as binary little-endian PLY
  /// (position and colour, 15 bytes a point; normals too when `normals`), in pieces of
  /// `streamedPiecePoints` each sampled with its own seed, holding one piece at a time.
  /// The same arguments give the same bytes.
  ///
  /// - Throws: `FileError` when the file cannot be written; the target is then left
  ///   as it was.
  public static func writeScene(
    count: Int, seed: UInt64, normals: Bool, comments: [String], to path: String,
    progress: ProgressHandler? = nil
  ) throws {
    let options = PLYWriteOptions(
      format: .binaryLittleEndian, attributes: normals ? .all : .none, comments: [])
    let plan = try PLYWritePlan(cloud: scene(count: 0, normals: normals), options: options)
    let writer = try AtomicFileWriter(path: path)
    do {
      try writer.write(Array(plan.header(vertexCount: count, comments: comments).utf8))
      var written = 0
      var piece: UInt64 = 0
      while written < count {
        let size = min(streamedPiecePoints, count - written)
        let cloud = scene(count: size, seed: seed &+ piece, normals: normals)
        let piecePlan = try PLYWritePlan(cloud: cloud, options: options)
        try piecePlan.encodeBody(progress: nil) { chunk in try writer.write(chunk) }
        written += size
        piece += 1
        progress?(Double(written) / Double(max(1, count)))
      }
      try writer.commit()
    } catch {
      writer.abandon()
      throw error
    }
  }
}
