import CloudScrubCore

/// A point drawer that draws nothing and writes down every draw it was asked for, from
/// the CPU store as `CPUPointDrawer` draws: the test double for the renderer's logic
/// when no GPU copy is kept (nothing uploaded, what was uploaded freed).
public final class RecordingStorePointDrawer: StorePointDrawer {
  /// One draw of a store's points.
  public struct Draw: Equatable, Sendable {
    public var range: Range<Int>
    public var uniforms: PointUniforms
  }

  public private(set) var draws: [Draw] = []
  /// The meshes drawn, by their triangle counts, draw by draw.
  public private(set) var meshDraws: [Int] = []
  /// Pictures handed over (one a frame that drew points).
  public private(set) var finishedPictures = 0
  private var pending = false

  public init() {}

  public func beginFrame(_ setup: FrameSetup, on backend: any RenderBackend) { pending = false }

  public func resumeFrame(on backend: any RenderBackend) {}

  public func draw(
    _ store: PointStore, mirror: PointBufferMirror, range: Range<Int>, uniforms: PointUniforms,
    on backend: any RenderBackend
  ) {
    record(range.clamped(to: 0..<store.count), uniforms)
  }

  public func draw(
    node: Int, of octree: PointOctree, cache: LODNodeCache, range: Range<Int>,
    uniforms: PointUniforms, on backend: any RenderBackend
  ) {
    record(range.clamped(to: 0..<octree.nodes[node].points.count), uniforms)
  }

  public func finishPoints(on backend: any RenderBackend) {
    if pending { finishedPictures += 1 }
    pending = false
  }

  public func draw(_ mesh: SceneMesh, uniforms: PointUniforms, on backend: any RenderBackend) {
    meshDraws.append(mesh.mesh.triangles.count)
    pending = true
  }

  /// The store indices drawn, draw by draw.
  public var drawnRanges: [Range<Int>] { draws.map(\.range) }

  private func record(_ range: Range<Int>, _ uniforms: PointUniforms) {
    guard !range.isEmpty else { return }
    draws.append(Draw(range: range, uniforms: uniforms))
    pending = true
  }
}
