import CGL
import CloudScrubCore

/// The OpenGL 3.3 core backend. Needs a current context (a GLFW window's, or the
/// headless `EGLHeadlessContext`); draws the scene into its own framebuffer and
/// composites it onto `outputFramebuffer` (0: the window).
public final class GLBackend: RenderBackend {
  /// A point buffer: `capacity` points, then their intensity levels when it has them.
  private struct Chunk {
    var buffer: GLuint
    var vertexArray: GLuint
    var capacity: Int
    var withIntensity: Bool
  }

  /// Where `endFrame` puts the picture: 0 is the window's default framebuffer.
  public var outputFramebuffer: GLuint = 0
  /// The lower-left corner of the picture in the output framebuffer, in pixels (the
  /// window puts the 3D view between its panels).
  public var outputOrigin: SIMD2<Int> = .zero
  /// Why the last `beginFrame` found no scene framebuffer to draw into (nil while it
  /// has one). The frame's draws are skipped meanwhile; the window shows this as its
  /// message and `render` fails with it.
  public private(set) var sceneTargetError: RenderError?
  private let points: GLProgram
  private let lines: GLProgram
  private let composite: GLProgram
  private let meshes: GLMeshBuffers
  private let scene = GLSceneTarget()
  private var chunks: [PointChunkID: Chunk] = [:]
  private var nextChunk = 0
  private var frameTable = GLFrameTable()
  private var errorTable = GLFrameErrorTable()
  private var lineBuffer: GLuint = 0
  private var lineArray: GLuint = 0
  private var emptyArray: GLuint = 0
  private var setup = FrameSetup(
    widthPixels: 1, heightPixels: 1, background: .zero, eyeDomeLighting: false,
    nearFarMeters: SIMD2(0.01, 100))
  /// Who draws the points: OpenGL from the chunks (`GPUPointDrawer`) unless the
  /// renderer picked says otherwise (`PointRenderer.makeDrawer()`).
  public var pointDrawer: any PointDrawer = GPUPointDrawer()

  /// Compiles the programs.
  ///
  /// - Throws: `RenderError` when a shader does not compile or link.
  public init() throws {
    points = try GLProgram(vertex: "points.vert", fragment: "points.frag")
    lines = try GLProgram(vertex: "lines.vert", fragment: "lines.frag")
    composite = try GLProgram(vertex: "fullscreen.vert", fragment: "composite.frag")
    meshes = try GLMeshBuffers()
    glGenVertexArrays(1, &emptyArray)
    glGenVertexArrays(1, &lineArray)
    glGenBuffers(1, &lineBuffer)
    glBindVertexArray(lineArray)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), lineBuffer)
    let stride = GLsizei(MemoryLayout<LineVertex>.stride)
    glEnableVertexAttribArray(0)
    glVertexAttribPointer(0, 3, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
    glEnableVertexAttribArray(1)
    glVertexAttribPointer(
      1, 4, GLenum(GL_UNSIGNED_BYTE), GLboolean(GL_TRUE), stride, UnsafeRawPointer(bitPattern: 12))
    glBindVertexArray(0)
  }

  deinit {
    releaseChunks(Array(chunks.keys))
    frameTable.release()
    errorTable.release()
    glDeleteBuffers(1, &lineBuffer)
    glDeleteVertexArrays(1, &lineArray)
    glDeleteVertexArrays(1, &emptyArray)
  }

  /// The GL implementation's own description (vendor and renderer).
  public static var rendererName: String {
    "\(glString(GL_RENDERER)) (\(glString(GL_VERSION)))"
  }

  /// The current context's `GL_RENDERER` string ("llvmpipe (LLVM 15.0.6, 256 bits)"),
  /// which `PointRendererChoice.auto` decides by.
  public static var rendererString: String { glString(GL_RENDERER) }

  private static func glString(_ name: Int32) -> String {
    guard let pointer = glGetString(GLenum(name)) else { return "?" }
    return String(cString: pointer)
  }

  public var sceneSizePixels: SIMD2<Int>? {
    sceneTargetError == nil ? SIMD2(scene.width, scene.height) : nil
  }

  /// Puts `picture` into the scene target's colour and depth textures.
  public func drawScenePicture(_ picture: CPUSceneImage) {
    guard sceneTargetError == nil, picture.widthPixels == scene.width,
      picture.heightPixels == scene.height
    else { return }
    picture.colorRGBA.withUnsafeBufferPointer { color in
      picture.depth.withUnsafeBufferPointer { depth in
        guard let color = color.baseAddress, let depth = depth.baseAddress else { return }
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glBindTexture(GLenum(GL_TEXTURE_2D), scene.colorTexture)
        let width = GLsizei(scene.width)
        let height = GLsizei(scene.height)
        glTexSubImage2D(
          GLenum(GL_TEXTURE_2D), 0, 0, 0, width, height, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE),
          color)
        glBindTexture(GLenum(GL_TEXTURE_2D), scene.depthTexture)
        glTexSubImage2D(
          GLenum(GL_TEXTURE_2D), 0, 0, 0, width, height, GLenum(GL_DEPTH_COMPONENT),
          GLenum(GL_FLOAT), depth)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
      }
    }
  }

  public func makePointChunk(capacityPoints: Int, withIntensity: Bool) throws -> PointChunkID {
    var chunk = Chunk(
      buffer: 0, vertexArray: 0, capacity: capacityPoints, withIntensity: withIntensity)
    glGenBuffers(1, &chunk.buffer)
    glGenVertexArrays(1, &chunk.vertexArray)
    glBindVertexArray(chunk.vertexArray)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), chunk.buffer)
    while glGetError() != GLenum(GL_NO_ERROR) {}
    let bytesPerPoint = GPUPoint.byteCount + (withIntensity ? 1 : 0)
    glBufferData(
      GLenum(GL_ARRAY_BUFFER), GLsizeiptr(capacityPoints * bytesPerPoint), nil,
      GLenum(GL_STATIC_DRAW))
    if glGetError() == GLenum(GL_OUT_OF_MEMORY) {
      glDeleteBuffers(1, &chunk.buffer)
      glDeleteVertexArrays(1, &chunk.vertexArray)
      throw RenderError("the GPU has no room for \(capacityPoints) more points")
    }
    let stride = GLsizei(GPUPoint.byteCount)
    glEnableVertexAttribArray(0)
    glVertexAttribPointer(0, 3, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
    glEnableVertexAttribArray(1)
    glVertexAttribPointer(
      1, 4, GLenum(GL_UNSIGNED_BYTE), GLboolean(GL_TRUE), stride, UnsafeRawPointer(bitPattern: 12))
    if withIntensity {
      glEnableVertexAttribArray(2)
      glVertexAttribPointer(
        2, 1, GLenum(GL_UNSIGNED_BYTE), GLboolean(GL_TRUE), 1,
        UnsafeRawPointer(bitPattern: capacityPoints * GPUPoint.byteCount))
    }
    glBindVertexArray(0)
    let id = PointChunkID(nextChunk)
    nextChunk += 1
    chunks[id] = chunk
    return id
  }

  public func upload(
    _ points: UnsafeBufferPointer<GPUPoint>, into chunk: PointChunkID, atPoint firstPoint: Int
  ) {
    guard let target = chunks[chunk], let base = points.baseAddress else { return }
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), target.buffer)
    glBufferSubData(
      GLenum(GL_ARRAY_BUFFER), GLintptr(firstPoint * GPUPoint.byteCount),
      GLsizeiptr(points.count * GPUPoint.byteCount), base)
  }

  public func uploadIntensity(
    _ levels: UnsafeBufferPointer<UInt8>, into chunk: PointChunkID, atPoint firstPoint: Int
  ) {
    guard let target = chunks[chunk], target.withIntensity, let base = levels.baseAddress else {
      return
    }
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), target.buffer)
    glBufferSubData(
      GLenum(GL_ARRAY_BUFFER), GLintptr(target.capacity * GPUPoint.byteCount + firstPoint),
      GLsizeiptr(levels.count), base)
  }

  public func uploadFrameStarts(_ starts: [Int32], atFrame firstFrame: Int) {
    frameTable.write(starts, atFrame: firstFrame)
  }

  public func beginFrame(_ setup: FrameSetup) {
    self.setup = setup
    do throws(RenderError) {
      try scene.ensureSize(width: max(1, setup.widthPixels), height: max(1, setup.heightPixels))
      sceneTargetError = nil
    } catch {
      sceneTargetError = error
      return
    }
    bindScene()
    glClearColor(setup.background.x, setup.background.y, setup.background.z, 0)
    glClearDepth(1)
    glClear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT))
  }

  /// Goes on with the picture: the scene target keeps what it had.
  public func resumeFrame() {
    guard sceneTargetError == nil else { return }
    bindScene()
  }

  /// Draws into the scene target with depth testing, as every pass of a frame does.
  private func bindScene() {
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), scene.framebuffer)
    glViewport(0, 0, GLsizei(scene.width), GLsizei(scene.height))
    glEnable(GLenum(GL_DEPTH_TEST))
    glDepthFunc(GLenum(GL_LESS))
    glEnable(GLenum(GL_PROGRAM_POINT_SIZE))
    glDisable(GLenum(GL_BLEND))
  }

  public func drawPoints(
    chunk: PointChunkID, range: Range<Int>, baseIndex: Int, uniforms u: PointUniforms
  ) {
    guard let target = chunks[chunk], !range.isEmpty, sceneTargetError == nil else { return }
    glUseProgram(points.id)
    points.set("uViewProjection", u.viewProjection)
    points.set("uView", u.view)
    points.set("uWorldFromStored", u.worldFromStored ?? .identity)
    points.set("uPointSizePixels", u.pointSizePixels)
    points.set("uColorMode", Self.modeIndex(u.colorMode))
    points.set("uMinConfidence", Int(u.minConfidence.rawValue))
    points.set("uRoundPoints", u.roundPoints ? 1 : 0)
    points.set("uUpAxis", u.upAxis)
    points.set(
      "uHeightRange", SIMD2(u.heightRangeMeters.lowerBound, u.heightRangeMeters.upperBound))
    points.set("uDepthRange", SIMD2(u.depthRangeMeters.lowerBound, u.depthRangeMeters.upperBound))
    points.set("uBaseIndex", baseIndex)
    let frames = u.fixedFrame == nil ? min(u.frameCount, frameTable.count) : u.frameCount
    points.set("uFrameCount", frames)
    points.set("uFixedFrame", u.fixedFrame ?? -1)
    points.set("uDimmed", Float(u.dimmed ? 1 : 0))
    if u.colorMode == .alignmentError {
      // Written first: writing binds the buffer texture on the active unit.
      errorTable.write(u.frameErrors.errorsMeters)
      glActiveTexture(GLenum(GL_TEXTURE1))
      errorTable.bind()
    }
    glActiveTexture(GLenum(GL_TEXTURE0))
    frameTable.bind()
    points.set("uFrameStarts", 0)
    points.set("uFrameErrors", 1)
    points.set("uErrorScaleMeters", u.frameErrors.scaleMeters)
    glBindVertexArray(target.vertexArray)
    if !target.withIntensity {
      // Without an intensity array the attribute reads its current value.
      glVertexAttrib1f(2, GPUPoint.noIntensityGray)
    }
    glDrawArrays(GLenum(GL_POINTS), GLint(range.lowerBound), GLsizei(range.count))
    glBindVertexArray(0)
  }

  public func drawLines(_ vertices: [LineVertex], viewProjection: Matrix4) {
    guard !vertices.isEmpty, sceneTargetError == nil else { return }
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), scene.framebuffer)
    glUseProgram(lines.id)
    lines.set("uViewProjection", viewProjection)
    glBindVertexArray(lineArray)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), lineBuffer)
    vertices.withUnsafeBytes { raw in
      glBufferData(
        GLenum(GL_ARRAY_BUFFER), GLsizeiptr(raw.count), raw.baseAddress, GLenum(GL_STREAM_DRAW))
    }
    glDrawArrays(GLenum(GL_LINES), 0, GLsizei(vertices.count))
    glBindVertexArray(0)
  }

  public func endFrame() {
    guard sceneTargetError == nil else { return }
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), outputFramebuffer)
    glViewport(
      GLint(outputOrigin.x), GLint(outputOrigin.y), GLsizei(scene.width), GLsizei(scene.height))
    glDisable(GLenum(GL_DEPTH_TEST))
    glUseProgram(composite.id)
    glActiveTexture(GLenum(GL_TEXTURE0))
    glBindTexture(GLenum(GL_TEXTURE_2D), scene.colorTexture)
    composite.set("uSceneColor", 0)
    glActiveTexture(GLenum(GL_TEXTURE1))
    glBindTexture(GLenum(GL_TEXTURE_2D), scene.depthTexture)
    composite.set("uSceneDepth", 1)
    glActiveTexture(GLenum(GL_TEXTURE0))
    composite.set("uEyeDome", setup.eyeDomeLighting ? 1 : 0)
    composite.set("uEyeDomeStrength", Float(8))
    composite.set(
      "uTexelSize", SIMD2(1 / Float(max(1, scene.width)), 1 / Float(max(1, scene.height))))
    composite.set("uNearFar", setup.nearFarMeters)
    glBindVertexArray(emptyArray)
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    glBindVertexArray(0)
    glEnable(GLenum(GL_DEPTH_TEST))
  }

  public func releaseChunks(_ ids: [PointChunkID]) {
    for id in ids {
      guard var chunk = chunks.removeValue(forKey: id) else { continue }
      glDeleteBuffers(1, &chunk.buffer)
      glDeleteVertexArrays(1, &chunk.vertexArray)
    }
  }

  /// Point chunks the GPU holds.
  public var pointChunkCount: Int { chunks.count }

  public func makeMeshBuffer(
    vertices: UnsafeBufferPointer<MeshVertex>, indices: UnsafeBufferPointer<UInt32>
  ) throws -> MeshBufferID {
    try meshes.make(vertices: vertices, indices: indices)
  }

  public func drawMesh(_ mesh: MeshBufferID, uniforms: PointUniforms) {
    guard sceneTargetError == nil else { return }
    meshes.draw(mesh, uniforms: uniforms)
  }

  public func releaseMeshBuffer(_ mesh: MeshBufferID) { meshes.release(mesh) }

  /// Meshes the GPU holds.
  public var meshBufferCount: Int { meshes.count }

  static func modeIndex(_ mode: PointColorMode) -> Int {
    switch mode {
    case .rgb: return 0
    case .height: return 1
    case .depth: return 2
    case .confidence: return 3
    case .frame: return 4
    case .alignmentError: return 5
    case .intensity: return 6
    }
  }
}
