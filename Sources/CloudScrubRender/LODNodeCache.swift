import CloudScrubCore

/// GPU memory as a cache of level-of-detail nodes: a node is uploaded when a pass
/// first needs it, its new points are appended when it grows (a node's points only
/// grow), and past `limitBytes` the least recently used nodes are evicted.
///
/// Each resident node is a `PointBufferMirror` of its own (append-only chunks), so a
/// node that is resident and has not grown uploads nothing: scrubbing and refining
/// across resident nodes touch no buffer.
public final class LODNodeCache {
  /// The default limit: 2 GiB of points (16 bytes each), about 134 M points.
  public static let defaultLimitBytes = 2 << 30

  public let backend: any RenderBackend
  /// Bytes of GPU buffers the cache may hold before it evicts.
  public var limitBytes: Int
  /// The resident nodes by node number.
  private var entries: [Int: Entry] = [:]
  /// Counts passes, for least-recently-used order.
  private var clock = 0
  /// Points uploaded over the cache's life, and nodes evicted.
  public private(set) var uploadedPoints = 0
  public private(set) var evictions = 0

  private struct Entry {
    var mirror: PointBufferMirror
    var lastUsed: Int
  }

  public init(backend: any RenderBackend, limitBytes: Int = LODNodeCache.defaultLimitBytes) {
    self.backend = backend
    self.limitBytes = max(0, limitBytes)
  }

  /// Bytes of the chunks the resident nodes hold.
  public var residentBytes: Int {
    entries.values.reduce(0) { $0 + $1.mirror.residentBytes }
  }

  /// Node numbers on the GPU now, in increasing order.
  public var residentNodes: [Int] { entries.keys.sorted() }

  /// Makes the nodes of `items` resident and up to date with `octree`, evicting the
  /// least recently used others while the cache is over its limit.
  ///
  /// - Throws: what the backend throws when it cannot create a buffer.
  public func prepare(_ items: [LODDrawItem], of octree: PointOctree) throws {
    clock += 1
    var needed: [Int] = []
    var seen = Set<Int>()
    for item in items where seen.insert(item.node).inserted {
      needed.append(item.node)
      entries[item.node]?.lastUsed = clock
    }
    // Room first: what this pass needs that is not resident yet.
    let incoming = needed.reduce(0) { total, node in
      let points = octree.nodes[node].pointCount
      guard let mirror = entries[node]?.mirror else {
        return total + Self.chunkCapacity(for: points)
      }
      return total + max(0, points - mirror.uploadedPoints)
    }
    evict(toFit: incoming * GPUPoint.byteCount)
    for node in needed {
      let points = octree.nodes[node].points
      let mirror: PointBufferMirror
      if let entry = entries[node] {
        mirror = entry.mirror
      } else {
        let first = Self.chunkCapacity(for: points.count)
        mirror = PointBufferMirror(
          backend: backend, firstChunkCapacity: first,
          largestChunkCapacity: max(first, 1 << 20), uploadsFrameTable: false)
        entries[node] = Entry(mirror: mirror, lastUsed: clock)
      }
      let before = mirror.uploadedPoints
      try mirror.sync(with: points)
      uploadedPoints += mirror.uploadedPoints - before
    }
  }

  /// The draw calls for points `range` of node `node` (nothing when it is not resident).
  public func drawCalls(node: Int, range: Range<Int>) -> [PointBufferMirror.DrawCall] {
    entries[node]?.mirror.drawCalls(for: range) ?? []
  }

  /// Frees every node (a new document, or the CPU draws now).
  public func reset() {
    for entry in entries.values { entry.mirror.reset() }
    entries = [:]
  }

  /// Evicts the least recently used nodes not used by the current pass until
  /// `incomingBytes` more fit under the limit (or nothing else can go).
  private func evict(toFit incomingBytes: Int) {
    var resident = residentBytes
    guard resident + incomingBytes > limitBytes else { return }
    let order = entries.filter { $0.value.lastUsed != clock }
      .sorted { ($0.value.lastUsed, $0.key) < ($1.value.lastUsed, $1.key) }
    for (node, entry) in order where resident + incomingBytes > limitBytes {
      resident -= entry.mirror.residentBytes
      entry.mirror.reset()
      entries[node] = nil
      evictions += 1
    }
  }

  /// A first chunk that holds the node as it is now, rounded up to a power of two.
  static func chunkCapacity(for points: Int) -> Int {
    var capacity = 1 << 8
    while capacity < points && capacity < 1 << 20 { capacity <<= 1 }
    return capacity
  }
}
