import Foundation

extension KDTree {
  /// Builds the tree over `positions`' finite points in Morton (Z-curve) order, which
  /// takes a radix sort instead of a median selection at every level.
  ///
  /// Each point's code interleaves the bits of its coordinates quantised to 1,024 steps
  /// over the cloud's longest side, so nodes are compact wherever points are denser than
  /// that (scans, whose neighbour queries this tree serves). Queries stay exact, as with
  /// any order (`init(keepingOrderOf:)`); a cloud of far-apart clusters is better served
  /// by `init(_:)`.
  ///
  /// `stop` is asked every few thousand points and between the sort's passes; once it
  /// says to stop, the build ends early with a tree that finds nothing.
  init(mortonOrdering positions: [Point3], stop: StopCheck? = nil) {
    var finite: [Entry] = []
    finite.reserveCapacity(positions.count)
    var low = SIMD3<Float>(repeating: .infinity)
    var high = SIMD3<Float>(repeating: -.infinity)
    for (index, p) in positions.enumerated() where p.x.isFinite && p.y.isFinite && p.z.isFinite {
      if StopChecks.due(stop, at: index) { break }
      finite.append(Entry(x: p.x, y: p.y, z: p.z, index: Int32(index)))
      let q = SIMD3(p.x, p.y, p.z)
      low = pointwiseMin(low, q)
      high = pointwiseMax(high, q)
    }
    guard !finite.isEmpty, !StopChecks.now(stop) else {
      self.init(keepingOrderOf: [], sourceCount: positions.count)
      return
    }
    let extent = Double((high - low).max())
    let scale = extent > 0 ? 1023.999 / extent : 0
    let origin = SIMD3<Double>(Double(low.x), Double(low.y), Double(low.z))
    let keys = finite.map { e -> UInt32 in
      let q = (SIMD3<Double>(Double(e.x), Double(e.y), Double(e.z)) - origin) * scale
      return Self.spread(UInt32(q.x)) | Self.spread(UInt32(q.y)) << 1
        | Self.spread(UInt32(q.z)) << 2
    }
    guard let order = Self.radixSorted(keys, stop: stop) else {
      self.init(keepingOrderOf: [], sourceCount: positions.count)
      return
    }
    self.init(
      keepingOrderOf: order.map { finite[Int($0)] }, sourceCount: positions.count, stop: stop)
  }

  /// The ten low bits of `v`, two zero bits after each.
  @inline(__always) private static func spread(_ v: UInt32) -> UInt32 {
    var x = min(v, 1023)
    x = (x | x << 16) & 0x0300_00FF
    x = (x | x << 8) & 0x0300_F00F
    x = (x | x << 4) & 0x030C_30C3
    x = (x | x << 2) & 0x0924_9249
    return x
  }

  /// The indices of `keys` in ascending order of key (stable): three passes of ten bits;
  /// nil once `stop`, asked before each pass, says to stop.
  private static func radixSorted(_ keys: [UInt32], stop: StopCheck?) -> [UInt32]? {
    var order = (0..<UInt32(keys.count)).map { $0 }
    var current = keys
    var nextOrder = [UInt32](repeating: 0, count: keys.count)
    var nextKeys = [UInt32](repeating: 0, count: keys.count)
    for shift: UInt32 in [0, 10, 20] {
      if StopChecks.now(stop) { return nil }
      var starts = [Int](repeating: 0, count: 1025)
      for key in current { starts[Int(key >> shift & 1023) + 1] += 1 }
      for digit in 0..<1024 { starts[digit + 1] += starts[digit] }
      for (i, key) in current.enumerated() {
        let digit = Int(key >> shift & 1023)
        nextKeys[starts[digit]] = key
        nextOrder[starts[digit]] = order[i]
        starts[digit] += 1
      }
      swap(&current, &nextKeys)
      swap(&order, &nextOrder)
    }
    return order
  }
}
