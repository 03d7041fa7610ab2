import CloudScrubCore

/// A PLY file read into memory: its header, the points of its vertex element and, for
/// a binary mesh, its faces' triangles.
public struct PLYDocument: Sendable {
  public var header: PLYHeader
  public var cloud: PointCloud
  /// A binary PLY's faces, cut into triangles; nil without a face element (or in an
  /// ASCII file, whose faces are not read).
  public var triangles: [SIMD3<UInt32>]? = nil
}

/// Reads PLY files: ASCII, binary little-endian and binary big-endian.
///
/// The points are the records of the `vertex` element; other elements (faces, edges,
/// anything else) are walked past and checked, so a truncated file is reported even when
/// the damage is after the vertices.
public enum PLYReader {
  /// Reads the PLY file at `path` through a memory map.
  ///
  /// - Throws: `PLYFileError` for malformed content (a `PLYError` with the line or byte
  ///   offset), `FileError` when the file cannot be read; either names the file last.
  public static func read(path: String, progress: ProgressHandler? = nil) throws -> PLYDocument {
    try read(MappedFile(path: path), progress: progress)
  }

  /// Reads the PLY file mapped as `file` (which stays readable after the file's
  /// removal).
  ///
  /// - Throws: as `read(path:progress:)`.
  public static func read(_ file: MappedFile, progress: ProgressHandler? = nil) throws
    -> PLYDocument
  {
    let path = file.path
    do {
      let document = try read(bytes: file.bytes, progress: progress)
      try file.checkIntact()
      return document
    } catch let error as PLYError {
      // Zeros read past a truncation make any parse error; name the real cause.
      try file.checkIntact()
      throw PLYFileError(error, path: path)
    }
  }

  /// Reads only the header of the PLY file at `path`.
  public static func readHeader(path: String) throws -> PLYHeader {
    let file = try MappedFile(path: path)
    do {
      let header = try PLYHeaderParser.parse(file.bytes)
      try file.checkIntact()
      return header
    } catch let error as PLYError {
      try file.checkIntact()
      throw PLYFileError(error, path: path)
    }
  }

  /// Reads a whole PLY file held in memory.
  ///
  /// - Throws: `PLYError` naming what is wrong and where.
  public static func read(
    bytes: UnsafeRawBufferPointer, progress: ProgressHandler? = nil
  ) throws(PLYError) -> PLYDocument {
    let header = try PLYHeaderParser.parse(bytes)
    let cloud: PointCloud
    switch header.format {
    case .ascii:
      cloud = try PLYASCIIReader.read(bytes, header: header, progress: progress)
    case .binaryLittleEndian, .binaryBigEndian:
      cloud = try PLYBinaryReader.read(bytes, header: header, progress: progress)
    }
    let triangles = try PLYFaceReader.triangles(bytes, header: header, vertexCount: cloud.count)
    return PLYDocument(header: header, cloud: cloud, triangles: triangles)
  }

  /// Reads a whole PLY file from an array of bytes.
  public static func read(data: [UInt8]) throws(PLYError) -> PLYDocument {
    let result = data.withUnsafeBytes { bytes in
      Result { () throws(PLYError) -> PLYDocument in try read(bytes: bytes) }
    }
    return try result.get()
  }
}
