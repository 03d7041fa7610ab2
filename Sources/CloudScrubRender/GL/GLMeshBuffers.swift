import CGL
import CloudScrubCore

/// The OpenGL backend's meshes: a vertex and an index buffer a mesh, and the program
/// that draws them (`Shaders/mesh.vert`), into whatever framebuffer is bound.
final class GLMeshBuffers {
  private struct Buffers {
    var vertexArray: GLuint = 0
    var vertices: GLuint = 0
    var indices: GLuint = 0
    var indexCount = 0
  }

  private let program: GLProgram
  private var meshes: [MeshBufferID: Buffers] = [:]
  private var next = 0

  /// Compiles the mesh program.
  ///
  /// - Throws: `RenderError` when it does not compile or link.
  init() throws {
    program = try GLProgram(vertex: "mesh.vert", fragment: "mesh.frag")
  }

  deinit {
    for id in Array(meshes.keys) { release(id) }
  }

  /// Meshes on the GPU.
  var count: Int { meshes.count }

  func make(
    vertices: UnsafeBufferPointer<MeshVertex>, indices: UnsafeBufferPointer<UInt32>
  ) throws -> MeshBufferID {
    var made = Buffers()
    glGenVertexArrays(1, &made.vertexArray)
    glGenBuffers(1, &made.vertices)
    glGenBuffers(1, &made.indices)
    glBindVertexArray(made.vertexArray)
    while glGetError() != GLenum(GL_NO_ERROR) {}
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), made.vertices)
    glBufferData(
      GLenum(GL_ARRAY_BUFFER), GLsizeiptr(vertices.count * MeshVertex.byteCount),
      vertices.baseAddress, GLenum(GL_STATIC_DRAW))
    glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), made.indices)
    glBufferData(
      GLenum(GL_ELEMENT_ARRAY_BUFFER), GLsizeiptr(indices.count * 4), indices.baseAddress,
      GLenum(GL_STATIC_DRAW))
    let stride = GLsizei(MeshVertex.byteCount)
    glEnableVertexAttribArray(0)
    glVertexAttribPointer(0, 3, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
    glEnableVertexAttribArray(1)
    glVertexAttribPointer(
      1, 3, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, UnsafeRawPointer(bitPattern: 12))
    glEnableVertexAttribArray(2)
    glVertexAttribPointer(
      2, 4, GLenum(GL_UNSIGNED_BYTE), GLboolean(GL_TRUE), stride, UnsafeRawPointer(bitPattern: 24))
    glBindVertexArray(0)
    made.indexCount = indices.count
    let id = MeshBufferID(next)
    next += 1
    meshes[id] = made
    if glGetError() == GLenum(GL_OUT_OF_MEMORY) {
      release(id)
      throw RenderError(
        "the GPU has no room for a mesh of \(vertices.count) vertices and \(indices.count / 3) "
          + "triangles")
    }
    return id
  }

  /// Draws mesh `id` into the bound framebuffer, depth-tested.
  func draw(_ id: MeshBufferID, uniforms u: PointUniforms) {
    guard let mesh = meshes[id], mesh.indexCount > 0 else { return }
    glUseProgram(program.id)
    program.set("uViewProjection", u.viewProjection)
    program.set("uView", u.view)
    program.set("uColorMode", GLBackend.modeIndex(u.colorMode))
    program.set("uUpAxis", u.upAxis)
    program.set(
      "uHeightRange", SIMD2(u.heightRangeMeters.lowerBound, u.heightRangeMeters.upperBound))
    program.set("uDepthRange", SIMD2(u.depthRangeMeters.lowerBound, u.depthRangeMeters.upperBound))
    program.set("uAmbient", MeshShading.ambient)
    glBindVertexArray(mesh.vertexArray)
    glDrawElements(GLenum(GL_TRIANGLES), GLsizei(mesh.indexCount), GLenum(GL_UNSIGNED_INT), nil)
    glBindVertexArray(0)
  }

  func release(_ id: MeshBufferID) {
    guard var mesh = meshes.removeValue(forKey: id) else { return }
    glDeleteBuffers(1, &mesh.vertices)
    glDeleteBuffers(1, &mesh.indices)
    glDeleteVertexArrays(1, &mesh.vertexArray)
  }
}
