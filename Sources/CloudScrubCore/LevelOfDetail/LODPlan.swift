/// One draw of a level-of-detail plan: points `range` of node `node`'s store.
public struct LODDrawItem: Equatable, Hashable, Sendable {
  public var node: Int
  public var range: Range<Int>

  public init(node: Int, range: Range<Int>) {
    self.node = node
    self.range = range
  }
}

/// What the selector needs of the view: where the camera looks and how large a pixel is.
public struct LODView: Equatable, Sendable {
  /// Clip space from world space (projection × view, OpenGL conventions).
  public var clipFromWorld: Matrix4
  /// The projection's vertical scale (`projection[1, 1]`): a sphere of radius r at view
  /// depth w covers `r × projectionScaleY / w` of the half viewport height.
  public var projectionScaleY: Float
  public var viewportHeightPixels: Int

  public init(clipFromWorld: Matrix4, projectionScaleY: Float, viewportHeightPixels: Int) {
    self.clipFromWorld = clipFromWorld
    self.projectionScaleY = projectionScaleY
    self.viewportHeightPixels = viewportHeightPixels
  }

  /// The view of a viewer state's camera and viewport.
  public init(state: ViewerState) {
    let projection = state.projectionMatrix
    self.init(
      clipFromWorld: projection * state.viewMatrix, projectionScaleY: projection[1, 1],
      viewportHeightPixels: state.viewportHeight)
  }
}

/// The pure level-of-detail selector: which points of a `PointOctree` a view draws, in
/// what order, in passes of at most a point budget.
///
/// Nodes are visited from the root, largest on screen first (a node's projected size is
/// its bounding sphere's radius in pixels; one the camera is inside comes first), a
/// child only after its parent, so every pass draws the coarsest detail of what is
/// most on screen before finer detail. Nodes whose cube lies outside the view frustum
/// are skipped with their subtrees (children lie inside their parent's cube). Each
/// visited node contributes its points of the shown frames, one contiguous range. The
/// ordered list is then cut into passes of `budgetPoints` points (a node's range may
/// be cut between two passes), so after `passCount` passes every shown point in the
/// frustum has been drawn exactly once, and no pass holds more than the budget.
public struct LODPlan: Equatable, Sendable {
  /// Every draw of the plan, in order.
  public let items: [LODDrawItem]
  /// Points a pass holds (the last may hold fewer).
  public let budgetPoints: Int
  /// Points before each item: `starts[i]` points come before `items[i]`.
  private let starts: [Int]
  /// Points of every pass together.
  public let totalPoints: Int

  /// The plan for the frames `visibleFrames` (positions in the store's frame list;
  /// nil draws nothing) of `octree`, seen by `view`, in passes of `budgetPoints`.
  ///
  /// - Parameter marginMeters: how far a point may be drawn from where it is stored
  ///   (pose corrections move frames' points): each cube is grown by it before the
  ///   frustum test, so a node moved into view is not culled.
  public init(
    octree: PointOctree, view: LODView, visibleFrames: ClosedRange<Int>?, budgetPoints: Int,
    marginMeters: Double = 0
  ) {
    self.budgetPoints = max(1, budgetPoints)
    var items: [LODDrawItem] = []
    var starts: [Int] = []
    var total = 0
    if let frames = visibleFrames, octree.root >= 0, frames.lowerBound <= frames.upperBound {
      let frustum = LODFrustum(clipFromWorld: view.clipFromWorld)
      var queue = LODPriorityQueue()
      let scale = Double(view.projectionScaleY) * Double(view.viewportHeightPixels) / 2
      func visit(_ index: Int) {
        let cube = octree.nodes[index].cube
        let margin = max(0, marginMeters)
        let grown = LODCube(
          minimum: cube.minimum - SIMD3(repeating: margin), sizeMeters: cube.sizeMeters + 2 * margin
        )
        guard frustum.mayIntersect(margin > 0 ? grown : cube) else { return }
        queue.push(index, priority: frustum.projectedRadius(of: cube, pixelsPerUnit: scale))
      }
      visit(octree.root)
      while let index = queue.pop() {
        let node = octree.nodes[index]
        let range = node.pointRange(ofFrames: frames)
        if !range.isEmpty {
          items.append(LODDrawItem(node: index, range: range))
          starts.append(total)
          total += range.count
        }
        for child in node.children where child >= 0 { visit(child) }
      }
    }
    self.items = items
    self.starts = starts
    totalPoints = total
  }

  /// The plan for a viewer state's camera and shown frames.
  public init(
    octree: PointOctree, state: ViewerState, budgetPoints: Int, marginMeters: Double = 0
  ) {
    self.init(
      octree: octree, view: LODView(state: state), visibleFrames: state.playback.visibleFrames,
      budgetPoints: budgetPoints, marginMeters: marginMeters)
  }

  /// The margin that pose corrections call for in `octree`: the furthest a correction
  /// moves a point of the root's cube (0 without corrections).
  public static func marginMeters(
    for corrections: FramePoseCorrections?, in octree: PointOctree
  ) -> Double {
    guard let corrections, octree.root >= 0 else { return 0 }
    let cube = octree.nodes[octree.root].cube
    // No point of the cube is further from the origin than its centre plus half its
    // diagonal.
    let radius =
      (cube.center * cube.center).sum().squareRoot() + cube.sizeMeters * 0.8660254037844386
    return corrections.largestDisplacementMeters(radiusMeters: radius)
  }

  /// Passes needed to draw every selected point (at least one, which may be empty).
  public var passCount: Int { max(1, (totalPoints + budgetPoints - 1) / budgetPoints) }

  /// The draws of pass `index` (0 ≤ index < passCount), in order.
  public func items(ofPass index: Int) -> [LODDrawItem] {
    guard (0..<passCount).contains(index), !items.isEmpty else { return [] }
    let low = index * budgetPoints
    let high = min(totalPoints, low + budgetPoints)
    // The last item starting at or before `low`.
    var first = 0
    var last = items.count - 1
    while first < last {
      let middle = (first + last + 1) / 2
      if starts[middle] <= low { first = middle } else { last = middle - 1 }
    }
    var result: [LODDrawItem] = []
    var i = first
    while i < items.count && starts[i] < high {
      let item = items[i]
      let from = item.range.lowerBound + max(0, low - starts[i])
      let to = item.range.lowerBound + min(item.range.count, high - starts[i])
      if from < to { result.append(LODDrawItem(node: item.node, range: from..<to)) }
      i += 1
    }
    return result
  }

  /// Points in pass `index`.
  public func pointCount(ofPass index: Int) -> Int {
    guard (0..<passCount).contains(index) else { return 0 }
    return max(0, min(totalPoints, (index + 1) * budgetPoints) - index * budgetPoints)
  }
}
