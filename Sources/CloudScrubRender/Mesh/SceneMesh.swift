import CloudScrubCore

/// A triangle-mesh buffer on the GPU: its vertices and its triangles' indices.
public struct MeshBufferID: Hashable, Sendable {
  public var rawValue: Int
  public init(_ rawValue: Int) { self.rawValue = rawValue }
}

/// One mesh vertex as the GPU stores it: position, normal, colour (28 bytes).
public struct MeshVertex: Equatable, Sendable {
  public var position: Point3
  public var normal: Point3
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public var a: UInt8

  public init(position: Point3, normal: Point3, color: RGB8) {
    self.position = position
    self.normal = normal
    (r, g, b, a) = (color.r, color.g, color.b, 255)
  }

  public static let byteCount = MemoryLayout<MeshVertex>.stride
}

/// A triangle mesh drawn in the scene (a fused model, or a mesh file): the mesh itself,
/// and its GPU copy while the backend's point drawer draws from the GPU. The CPU
/// rasterizer draws straight from `mesh`, so no copy is kept then.
public final class SceneMesh {
  public let mesh: TriangleMesh
  let backend: any RenderBackend
  /// The GPU copy, while there is one.
  public private(set) var buffer: MeshBufferID?

  /// - Parameter backend: the backend that draws it (the scene's).
  public init(_ mesh: TriangleMesh, backend: any RenderBackend) {
    self.mesh = mesh
    self.backend = backend
  }

  deinit { release() }

  /// Makes the GPU copy what the backend's point drawer needs: uploaded, or none.
  ///
  /// - Throws: `RenderError` when the GPU has no room for the mesh.
  public func prepare() throws {
    try backend.pointDrawer.prepare(self)
  }

  /// Uploads the mesh, once.
  ///
  /// - Throws: `RenderError` when the GPU has no room for it.
  func upload() throws {
    guard buffer == nil, !mesh.triangles.isEmpty else { return }
    let hasNormals = mesh.normals.count == mesh.vertexCount
    let hasColors = mesh.colors.count == mesh.vertexCount
    let vertices = (0..<mesh.vertexCount).map { k in
      MeshVertex(
        position: mesh.positions[k], normal: hasNormals ? mesh.normals[k] : .zero,
        color: hasColors ? mesh.colors[k] : MeshShading.plainColor)
    }
    // Three indices a triangle, packed (a `SIMD3` is padded to four).
    var indices: [UInt32] = []
    indices.reserveCapacity(mesh.triangles.count * 3)
    for triangle in mesh.triangles { indices += [triangle.x, triangle.y, triangle.z] }
    buffer = try vertices.withUnsafeBufferPointer { vertices in
      try indices.withUnsafeBufferPointer { indices in
        try backend.makeMeshBuffer(vertices: vertices, indices: indices)
      }
    }
  }

  /// Frees the GPU copy, if any.
  func release() {
    guard let buffer else { return }
    backend.releaseMeshBuffer(buffer)
    self.buffer = nil
  }
}
