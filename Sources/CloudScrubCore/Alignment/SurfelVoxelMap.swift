/// The model a frame is aligned to: a voxel grid whose voxels each keep the sums of the
/// points that fell in them, of their outer products and of their normals, so a voxel
/// is a small plane through its mean point.
///
/// The plane's normal is the smallest eigenvector of the points' covariance, found by a
/// few power iterations of (trace · I − covariance) started from the mean normal: where
/// the points spread over a patch it converges to the patch's normal (which the
/// per-point normals, taken from noisy depth differences, only approximate); where they
/// do not (one or two points, a line of them) it stays close to the mean normal.
///
/// Points can be taken out again (a frame leaving the model's time window) by adding
/// them with weight −1; sums are kept in `Double` so that this leaves no residue worth
/// the name. Voxels are found in an open-addressing hash table keyed by their packed
/// integer coordinates (21 bits each, ±42 km at 4 cm).
struct SurfelVoxelMap {
  /// A voxel's plane: a point on it and its unit normal.
  struct Plane {
    var point: SIMD3<Float>
    var normal: SIMD3<Float>
  }

  let voxelSizeMeters: Float
  private let inverseSize: Float
  private var keys: [Int64]
  private var slots: [Int32]
  private var mask: Int
  private var counts: [Double] = []
  private var pointSums: [SIMD3<Double>] = []
  private var normalSums: [SIMD3<Double>] = []
  /// Σ x², Σ xy, Σ xz, Σ y², Σ yz, Σ z² (the last two lanes unused).
  private var squareSums: [SIMD8<Double>] = []
  private var planes: [Plane] = []
  private var planeStates: [PlaneState] = []
  private enum PlaneState: UInt8 { case stale, known, none }
  /// No voxel has this key (coordinates are offset to be positive).
  static let empty = Int64.min
  /// The in-plane variance (sum of the two larger eigenvalues) a voxel's points need
  /// for their covariance to give the normal: a spread of a sixth of the voxel.
  private let minimumSpread: Double

  init(voxelSizeMeters: Float) {
    self.voxelSizeMeters = voxelSizeMeters
    inverseSize = 1 / voxelSizeMeters
    minimumSpread = 2 * Double(voxelSizeMeters / 6) * Double(voxelSizeMeters / 6)
    keys = Array(repeating: Self.empty, count: 1 << 14)
    slots = Array(repeating: 0, count: 1 << 14)
    mask = (1 << 14) - 1
  }

  /// The number of voxels that ever held a point.
  var voxelCount: Int { counts.count }

  /// Adds `weight` (1 to insert, −1 to take out) times each point and normal.
  mutating func add(points: [SIMD3<Float>], normals: [SIMD3<Float>], weight: Double) {
    for (p, n) in zip(points, normals) {
      let key = Self.key(p, inverseSize)
      let slot = weight > 0 ? insertSlot(key) : findSlot(key)
      guard let slot else { continue }
      let q = SIMD3<Double>(p)
      counts[slot] += weight
      planeStates[slot] = .stale
      pointSums[slot] += weight * q
      normalSums[slot] += weight * SIMD3<Double>(n)
      squareSums[slot] +=
        weight * SIMD8(q.x * q.x, q.x * q.y, q.x * q.z, q.y * q.y, q.y * q.z, q.z * q.z, 0, 0)
    }
  }

  /// The plane of the voxel holding `p`: nil when the voxel holds no point or its
  /// points' normals disagree (the mean normal shorter than 0.7: both sides of a thin
  /// object, or a corner). Worked out once after each change of the voxel: a frame's
  /// registration asks for the same voxels in every iteration.
  mutating func plane(containing p: SIMD3<Float>) -> Plane? {
    plane(key: voxelKey(p))
  }

  /// The key of the voxel holding `p`, for `plane(key:)`: a registration that moves a
  /// point within its voxel asks for the same plane again without a lookup.
  func voxelKey(_ p: SIMD3<Float>) -> Int64 { Self.key(p, inverseSize) }

  /// `plane(containing:)` of a point whose voxel key is `key`.
  mutating func plane(key: Int64) -> Plane? {
    guard let slot = findSlot(key) else { return nil }
    switch planeStates[slot] {
    case .known: return planes[slot]
    case .none: return nil
    case .stale:
      let plane = plane(slot: slot)
      if let plane {
        planes[slot] = plane
        planeStates[slot] = .known
      } else {
        planeStates[slot] = .none
      }
      return plane
    }
  }

  private func plane(slot: Int) -> Plane? {
    let count = counts[slot]
    guard count >= 1 - 1e-6 else { return nil }
    let normalSum = normalSums[slot]
    let length = (normalSum * normalSum).sum().squareRoot()
    guard length >= 0.7 * count else { return nil }
    let mean = pointSums[slot] / count
    var normal = normalSum / length
    if count >= 3 {
      let s = squareSums[slot] / count
      let xx = s[0] - mean.x * mean.x
      let xy = s[1] - mean.x * mean.y
      let xz = s[2] - mean.x * mean.z
      let yy = s[3] - mean.y * mean.y
      let yz = s[4] - mean.y * mean.z
      let zz = s[5] - mean.z * mean.z
      let trace = xx + yy + zz
      let c0 = SIMD3(trace - xx, -xy, -xz)
      let c1 = SIMD3(-xy, trace - yy, -yz)
      let c2 = SIMD3(-xz, -yz, trace - zz)
      var v = normal
      for _ in 0..<6 {
        let next = c0 * v.x + c1 * v.y + c2 * v.z
        let size = (next * next).sum().squareRoot()
        guard size > 1e-12 else { break }
        v = next / size
      }
      // Only a patch the points spread over has a normal of its own: near-duplicate
      // points of successive frames spread along the viewing ray (depth noise), whose
      // smallest eigenvector lies across the true normal.
      let smallest = rayleigh(v, xx, xy, xz, yy, yz, zz)
      let spread = trace - smallest
      if spread >= minimumSpread && smallest <= 0.05 * spread / 2 {
        normal = (v * normal).sum() < 0 ? -v : v
      }
    }
    return Plane(point: SIMD3<Float>(mean), normal: SIMD3<Float>(normal))
  }

  /// vᵀ C v for the symmetric C given by its six entries.
  private func rayleigh(
    _ v: SIMD3<Double>, _ xx: Double, _ xy: Double, _ xz: Double, _ yy: Double, _ yz: Double,
    _ zz: Double
  ) -> Double {
    let cv = SIMD3(
      xx * v.x + xy * v.y + xz * v.z, xy * v.x + yy * v.y + yz * v.z,
      xz * v.x + yz * v.y + zz * v.z)
    return (v * cv).sum()
  }

  // MARK: - Hash table

  private static func key(_ p: SIMD3<Float>, _ inverseSize: Float) -> Int64 {
    func coordinate(_ value: Float) -> Int64 {
      let cell = (value * inverseSize).rounded(.down)
      let clamped = min(max(cell, -1_048_575), 1_048_575)
      return Int64(clamped) + 1_048_576
    }
    return coordinate(p.x) | coordinate(p.y) << 21 | coordinate(p.z) << 42
  }

  private func home(_ key: Int64) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
  }

  private func findSlot(_ key: Int64) -> Int? {
    var index = home(key)
    while true {
      let stored = keys[index]
      if stored == key { return Int(slots[index]) }
      if stored == Self.empty { return nil }
      index = (index + 1) & mask
    }
  }

  private mutating func insertSlot(_ key: Int64) -> Int? {
    var index = home(key)
    while true {
      let stored = keys[index]
      if stored == key { return Int(slots[index]) }
      if stored == Self.empty { break }
      index = (index + 1) & mask
    }
    let slot = counts.count
    keys[index] = key
    slots[index] = Int32(slot)
    counts.append(0)
    pointSums.append(.zero)
    normalSums.append(.zero)
    squareSums.append(.zero)
    planes.append(Plane(point: .zero, normal: .zero))
    planeStates.append(.stale)
    if counts.count * 2 > keys.count { grow() }
    return slot
  }

  private mutating func grow() {
    let oldKeys = keys
    let oldSlots = slots
    keys = Array(repeating: Self.empty, count: oldKeys.count * 2)
    slots = Array(repeating: 0, count: oldKeys.count * 2)
    mask = keys.count - 1
    for (key, slot) in zip(oldKeys, oldSlots) where key != Self.empty {
      var index = home(key)
      while keys[index] != Self.empty { index = (index + 1) & mask }
      keys[index] = key
      slots[index] = slot
    }
  }
}
