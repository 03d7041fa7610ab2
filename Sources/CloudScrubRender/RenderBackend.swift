import CloudScrubCore

/// A GPU buffer of points, created with a fixed capacity and filled from the front.
public struct PointChunkID: Hashable, Sendable {
  public var rawValue: Int
  public init(_ rawValue: Int) { self.rawValue = rawValue }
}

/// One overlay vertex: a position in world space and an RGBA colour.
public struct LineVertex: Equatable, Sendable {
  public var x: Float
  public var y: Float
  public var z: Float
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public var a: UInt8

  public init(_ p: SIMD3<Float>, _ color: (UInt8, UInt8, UInt8, UInt8)) {
    x = p.x
    y = p.y
    z = p.z
    (r, g, b, a) = color
  }
}

/// What the points program needs besides the points: every look and filter is here,
/// so changing them never touches a vertex buffer.
public struct PointUniforms: Equatable, Sendable {
  public var viewProjection: Matrix4
  public var view: Matrix4
  public var pointSizePixels: Float
  public var colorMode: PointColorMode
  public var minConfidence: ConfidenceLevel
  public var roundPoints: Bool
  public var upAxis: SIMD3<Float>
  public var heightRangeMeters: ClosedRange<Float>
  public var depthRangeMeters: ClosedRange<Float>
  public var frameCount: Int
  public var dimmed: Bool
  /// Each frame's alignment error, for the alignment-error colour mode.
  public var frameErrors: FrameErrorTable
  /// The frame every point of the draw belongs to, for colouring by frame; nil: found
  /// from each point's index in the frame table (a level-of-detail node's points are
  /// not in whole-store order, so its draws are split by frame and name it).
  public var fixedFrame: Int?
  /// A model transform applied to every point of the draw before the view (a frame's
  /// pose correction, `FramePoseCorrections`); nil: the stored positions are world.
  public var worldFromStored: Matrix4?

  public init(
    viewProjection: Matrix4, view: Matrix4, pointSizePixels: Float, colorMode: PointColorMode,
    minConfidence: ConfidenceLevel, roundPoints: Bool, upAxis: SIMD3<Float>,
    heightRangeMeters: ClosedRange<Float>, depthRangeMeters: ClosedRange<Float>, frameCount: Int,
    dimmed: Bool = false, frameErrors: FrameErrorTable = FrameErrorTable(),
    fixedFrame: Int? = nil, worldFromStored: Matrix4? = nil
  ) {
    self.viewProjection = viewProjection
    self.view = view
    self.pointSizePixels = pointSizePixels
    self.colorMode = colorMode
    self.minConfidence = minConfidence
    self.roundPoints = roundPoints
    self.upAxis = upAxis
    self.heightRangeMeters = heightRangeMeters
    self.depthRangeMeters = depthRangeMeters
    self.frameCount = frameCount
    self.dimmed = dimmed
    self.frameErrors = frameErrors
    self.fixedFrame = fixedFrame
    self.worldFromStored = worldFromStored
  }
}

/// How a frame starts and ends: the viewport, the background, and the final pass.
public struct FrameSetup: Equatable, Sendable {
  public var widthPixels: Int
  public var heightPixels: Int
  public var background: SIMD3<Float>
  public var eyeDomeLighting: Bool
  /// Near and far planes of the projection, which eye-dome lighting needs to
  /// linearise depth.
  public var nearFarMeters: SIMD2<Float>

  public init(
    widthPixels: Int, heightPixels: Int, background: SIMD3<Float>, eyeDomeLighting: Bool,
    nearFarMeters: SIMD2<Float>
  ) {
    self.widthPixels = widthPixels
    self.heightPixels = heightPixels
    self.background = background
    self.eyeDomeLighting = eyeDomeLighting
    self.nearFarMeters = nearFarMeters
  }
}

/// The small set of GPU operations the renderer needs. The OpenGL backend draws (its
/// `pointDrawer` says who draws the points into its scene target); the recording
/// backend (`RecordingRenderBackend`) writes down what it was asked, so the renderer's
/// logic is tested without a GPU.
public protocol RenderBackend: AnyObject {
  /// Creates an empty point buffer that holds `capacityPoints` points, and their
  /// intensity levels too when `withIntensity` (one byte a point).
  func makePointChunk(capacityPoints: Int, withIntensity: Bool) throws -> PointChunkID
  /// Copies points into a chunk at `firstPoint`; what is already there stays.
  func upload(
    _ points: UnsafeBufferPointer<GPUPoint>, into chunk: PointChunkID, atPoint firstPoint: Int)
  /// Copies points' intensity levels into a chunk made with intensity, at `firstPoint`.
  /// A chunk made without draws every point's intensity as a flat grey
  /// (`GPUPoint.noIntensityGray`).
  func uploadIntensity(
    _ levels: UnsafeBufferPointer<UInt8>, into chunk: PointChunkID, atPoint firstPoint: Int)
  /// Appends entries to the frame table (the first point index of each frame), which
  /// colouring by frame reads. `firstFrame` is the table index of `starts[0]`.
  func uploadFrameStarts(_ starts: [Int32], atFrame firstFrame: Int)
  /// Clears the scene target and sets the viewport.
  func beginFrame(_ setup: FrameSetup)
  /// Goes on drawing into the scene target as the last `beginFrame` left it, without
  /// clearing: a refinement pass adds points to the picture already there.
  func resumeFrame()
  /// Draws points `range` of a chunk; `baseIndex` is the index of the chunk's first
  /// point in the whole cloud.
  func drawPoints(chunk: PointChunkID, range: Range<Int>, baseIndex: Int, uniforms: PointUniforms)
  /// Draws line segments (pairs of vertices).
  func drawLines(_ vertices: [LineVertex], viewProjection: Matrix4)
  /// Puts the scene on the output, with eye-dome lighting when the setup asks.
  func endFrame()
  /// Frees chunks (a new cloud is about to load, or a preview is replaced).
  func releaseChunks(_ chunks: [PointChunkID])

  /// Copies a triangle mesh to the GPU: its vertices and the vertex indices of its
  /// triangles, three a triangle.
  ///
  /// - Throws: `RenderError` when the GPU has no room for it.
  func makeMeshBuffer(
    vertices: UnsafeBufferPointer<MeshVertex>, indices: UnsafeBufferPointer<UInt32>
  ) throws -> MeshBufferID
  /// Draws a mesh's triangles, shaded (`MeshShading`), depth-tested against the points.
  func drawMesh(_ mesh: MeshBufferID, uniforms: PointUniforms)
  /// Frees a mesh's GPU copy.
  func releaseMeshBuffer(_ mesh: MeshBufferID)

  /// The size of the scene target the frame draws into, in pixels; nil when the last
  /// `beginFrame` found none (the frame's draws are skipped).
  var sceneSizePixels: SIMD2<Int>? { get }
  /// Replaces the scene target's colour and depth with `picture`, points drawn on the
  /// CPU, before the overlays draw over it; a picture of another size than the scene
  /// target is skipped.
  func drawScenePicture(_ picture: CPUSceneImage)

  /// What fills the scene target with points (`PointDrawer`): picked once, when the
  /// renderer is, and read by the scene renderer and the overlay points, which share
  /// the backend. The backend itself does not read it.
  var pointDrawer: any PointDrawer { get set }
}
