/// The six planes of a view frustum, taken from a clip-from-world matrix (Gribb and
/// Hartmann), for conservative box tests and projected sizes.
struct LODFrustum {
  /// Plane coefficients (a, b, c, d): a point p is inside when a·x + b·y + c·z + d ≥ 0.
  private var planes: [SIMD4<Double>] = []
  /// Row 3 of the matrix: clip w, the view depth of a perspective projection.
  private let rowW: SIMD4<Double>

  init(clipFromWorld m: Matrix4) {
    func row(_ r: Int) -> SIMD4<Double> {
      SIMD4(Double(m[r, 0]), Double(m[r, 1]), Double(m[r, 2]), Double(m[r, 3]))
    }
    let x = row(0)
    let y = row(1)
    let z = row(2)
    rowW = row(3)
    planes = [rowW + x, rowW - x, rowW + y, rowW - y, rowW + z, rowW - z]
  }

  /// False only when the cube lies wholly outside one plane (it is surely not seen).
  func mayIntersect(_ cube: LODCube) -> Bool {
    let low = cube.minimum
    let high = cube.maximum
    for plane in planes {
      // The corner farthest along the plane's normal.
      let corner = SIMD3<Double>(
        plane.x >= 0 ? high.x : low.x, plane.y >= 0 ? high.y : low.y,
        plane.z >= 0 ? high.z : low.z)
      if plane.x * corner.x + plane.y * corner.y + plane.z * corner.z + plane.w < 0 {
        return false
      }
    }
    return true
  }

  /// The cube's bounding-sphere radius on screen, in pixels; infinite when the camera
  /// is within the sphere.
  func projectedRadius(of cube: LODCube, pixelsPerUnit: Double) -> Double {
    let c = cube.center
    let radius = cube.sizeMeters * 0.8660254037844386
    let w = rowW.x * c.x + rowW.y * c.y + rowW.z * c.z + rowW.w
    guard w > radius else { return .infinity }
    return radius * pixelsPerUnit / w
  }
}

/// A max-heap of node numbers by priority; equal priorities pop in push order, so a
/// plan never depends on anything but its inputs.
struct LODPriorityQueue {
  private var heap: [(priority: Double, order: Int, node: Int)] = []
  private var pushed = 0

  mutating func push(_ node: Int, priority: Double) {
    heap.append((priority, pushed, node))
    pushed += 1
    var i = heap.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard Self.before(heap[i], heap[parent]) else { break }
      heap.swapAt(i, parent)
      i = parent
    }
  }

  mutating func pop() -> Int? {
    guard let top = heap.first else { return nil }
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      var i = 0
      while true {
        let left = 2 * i + 1
        let right = left + 1
        var best = i
        if left < heap.count && Self.before(heap[left], heap[best]) { best = left }
        if right < heap.count && Self.before(heap[right], heap[best]) { best = right }
        if best == i { break }
        heap.swapAt(i, best)
        i = best
      }
    }
    return top.node
  }

  private static func before(
    _ a: (priority: Double, order: Int, node: Int), _ b: (priority: Double, order: Int, node: Int)
  ) -> Bool {
    a.priority > b.priority || (a.priority == b.priority && a.order < b.order)
  }
}
