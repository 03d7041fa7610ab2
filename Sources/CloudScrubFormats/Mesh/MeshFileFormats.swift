import CloudScrubCore

/// Binary glTF meshes, read as their vertices (`GLBReader`); `info` adds the faces.
public enum GLBFileFormat: CloudFileFormat {
  public static let name = "glTF binary"
  public static let lookedFor = "a binary glTF mesh (signature 'glTF')"
  public static func recognizes(prefix: [UInt8]) -> Bool {
    prefix.starts(with: Array("glTF".utf8))
  }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    let file = try MappedFile(path: path)
    do {
      return LoadedCloud(mesh: try GLBReader.read(bytes: file.bytes), format: "glTF 2.0 binary")
    } catch {
      throw InputFileError(error, path: path)
    }
  }
}

/// Wavefront OBJ meshes, read as their vertices (`OBJReader`); `info` adds the faces.
public enum OBJFileFormat: CloudFileFormat {
  public static let name = "OBJ"
  public static let lookedFor = "an OBJ mesh (lines of v, vn, f …)"
  public static func recognizes(prefix: [UInt8]) -> Bool { OBJReader.recognizes(prefix: prefix) }
  public static func read(_ path: String, progress: ProgressHandler?) throws -> LoadedCloud {
    let file = try MappedFile(path: path)
    do {
      return LoadedCloud(mesh: try OBJReader.read(bytes: file.bytes), format: "OBJ")
    } catch {
      throw InputFileError(error, path: path)
    }
  }
}

extension LoadedCloud {
  /// A mesh file's vertices as the cloud, with its triangle count.
  init(mesh: TriangleMesh, format: String) {
    self.init(
      format: format, cloud: mesh.vertexCloud, comments: [], plyHeader: nil,
      triangles: mesh.triangles.count)
  }
}
