import CloudScrubCore

/// Binary glTF meshes, read as their vertices (`GLBReader`); `info` adds the faces.
public enum GLBFileFormat: CloudFileFormat {
  public static let name = "glTF binary"
  public static let lookedFor = "a binary glTF mesh (signature 'glTF')"
  public static func recognizes(prefix: [UInt8]) -> Bool {
    prefix.starts(with: Array("glTF".utf8))
  }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    try LoadedCloud.mesh(at: path, format: "glTF 2.0 binary", GLBReader.read)
  }
}

/// Wavefront OBJ meshes, read as their vertices (`OBJReader`); `info` adds the faces.
public enum OBJFileFormat: CloudFileFormat {
  public static let name = "OBJ"
  public static let lookedFor = "an OBJ mesh (lines of v, vn, f …)"
  public static func recognizes(prefix: [UInt8]) -> Bool { OBJReader.recognizes(prefix: prefix) }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    try LoadedCloud.mesh(at: path, format: "OBJ", OBJReader.read)
  }
}

extension LoadedCloud {
  /// The mesh file at `path`, read by `read` from its mapped bytes: its vertices as the
  /// cloud, with its triangle count; a content error names the file.
  static func mesh<Failure: Error & Equatable & Sendable & CustomStringConvertible>(
    at path: String, format: String,
    _ read: (UnsafeRawBufferPointer) throws(Failure) -> TriangleMesh
  ) throws -> LoadedCloud {
    let file = try MappedFile(path: path)
    do {
      let mesh = try read(file.bytes)
      return LoadedCloud(
        format: format, cloud: mesh.vertexCloud, comments: [], plyHeader: nil,
        triangles: mesh.triangles)
    } catch {
      throw InputFileError(error, path: path)
    }
  }
}
