import CloudScrubCore

/// A cloud drawn over the scene's points (the window's cleaning preview): held as a
/// CPU store of its own, mirrored on the GPU only while the backend's point drawer
/// draws from the GPU copy.
public final class OverlayPoints {
  public let mirror: PointBufferMirror
  public private(set) var store = PointStore()

  /// - Parameter backend: the backend that draws it (the main cloud's); the overlay
  ///   never writes the backend's frame table.
  public init(backend: any RenderBackend) {
    mirror = PointBufferMirror(backend: backend, uploadsFrameTable: false)
  }

  public var count: Int { store.count }

  /// Replaces the points, uploading them at once when the point drawer draws from the
  /// GPU copy.
  ///
  /// - Throws: `RenderError` when the GPU has no room; the points are kept and drawn
  ///   as far as they were uploaded.
  public func replace(with points: PointStore) throws {
    mirror.reset()
    store = points
    try prepare()
  }

  /// Removes the points and frees their GPU chunks.
  public func clear() {
    mirror.reset()
    store = PointStore()
  }

  /// Makes the mirror what the backend's point drawer needs: every point uploaded, or
  /// no chunk at all when it draws from the store.
  ///
  /// - Throws: `RenderError` when the GPU has no room.
  public func prepare() throws {
    try mirror.backend.pointDrawer.sync(mirror, with: store)
  }
}
