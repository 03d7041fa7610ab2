import Foundation

/// Orders a `KDTree`'s entries in place and fills in its node boxes.
///
/// The top levels are split on the calling thread; below them each subtree owns a
/// disjoint range of entries and of nodes, so subtrees are built concurrently.
///
/// `stop` is asked every few thousand entries of the first box and before each node of
/// at least that many entries (the selections between are linear in the node's size);
/// after a stop the nodes not yet built keep empty boxes.
struct KDTreeBuilder: @unchecked Sendable {
  let entries: UnsafeMutablePointer<KDTree.Entry>?
  let boxes: UnsafeMutablePointer<KDTree.Box>?
  let depth: Int
  var stop: StopCheck? = nil

  /// Whether to stop before a node of `size` entries: asked only for large ones.
  @inline(__always) private func stopsBefore(size: Int) -> Bool {
    size >= StopChecks.interval && StopChecks.now(stop)
  }

  func buildAll(count: Int) {
    guard count > 0, let entries, boxes != nil else { return }
    var all = KDTree.Box.empty
    for i in 0..<count {
      if StopChecks.due(stop, at: i) { return }
      all.add(entries[i])
    }
    // Eight subtrees keep two to four cores busy even when their sizes differ a little.
    let parallelLevel = count >= 1 << 16 ? min(depth, 3) : depth
    build(node: 0, lo: 0, hi: count, level: 0, stopLevel: parallelLevel, region: all)
    guard parallelLevel < depth else { return }
    let first = (1 << parallelLevel) - 1
    Parallel.perform(iterations: 1 << parallelLevel) { offset in
      let range = Self.range(ofNodeAt: parallelLevel, offset: offset, count: count)
      build(
        node: first + offset, lo: range.lowerBound, hi: range.upperBound, level: parallelLevel,
        stopLevel: depth, region: handedOverRegion(first + offset))
    }
    unionUpward(first)
  }

  /// Fills in every node's box over the entries in their present order.
  func boxAll(count: Int) {
    guard count > 0, boxes != nil else { return }
    let parallelLevel = count >= 1 << 16 ? min(depth, 3) : 0
    let first = (1 << parallelLevel) - 1
    Parallel.perform(iterations: 1 << parallelLevel) { offset in
      let range = Self.range(ofNodeAt: parallelLevel, offset: offset, count: count)
      box(node: first + offset, lo: range.lowerBound, hi: range.upperBound, level: parallelLevel)
    }
    unionUpward(first)
  }

  /// Boxes the nodes above `first`, the first node of a level, from their children's.
  private func unionUpward(_ first: Int) {
    guard let boxes else { return }
    for node in (0..<first).reversed() {
      boxes[node] = boxes[2 * node + 1]
      boxes[node].formUnion(boxes[2 * node + 2])
    }
  }

  private func box(node: Int, lo: Int, hi: Int, level: Int) {
    guard let entries, let boxes, !stopsBefore(size: hi - lo) else { return }
    if level == depth {
      boxes[node] = leafBox(entries, lo, hi)
      return
    }
    let mid = lo + (hi - lo) / 2
    box(node: 2 * node + 1, lo: lo, hi: mid, level: level + 1)
    box(node: 2 * node + 2, lo: mid, hi: hi, level: level + 1)
    boxes[node] = boxes[2 * node + 1]
    boxes[node].formUnion(boxes[2 * node + 2])
  }

  /// The tight box of the entries `lo..<hi`.
  private func leafBox(_ entries: UnsafeMutablePointer<KDTree.Entry>, _ lo: Int, _ hi: Int)
    -> KDTree.Box
  {
    var box = KDTree.Box.empty
    for i in lo..<hi { box.add(entries[i]) }
    return box
  }

  /// The region `build` left in the box slot of a node at its `stopLevel`.
  private func handedOverRegion(_ node: Int) -> KDTree.Box {
    boxes?[node] ?? .empty
  }

  /// The entry range of the node `offset` places from the left at `level`.
  static func range(ofNodeAt level: Int, offset: Int, count: Int) -> Range<Int> {
    var lo = 0
    var hi = count
    for bit in stride(from: level - 1, through: 0, by: -1) {
      let mid = lo + (hi - lo) / 2
      if offset >> bit & 1 == 0 { hi = mid } else { lo = mid }
    }
    return lo..<hi
  }

  /// Splits `node` and builds its children down to `stopLevel`, then boxes it.
  ///
  /// `region` is the part of space the node's points lie in (its ancestors' box cut at
  /// their splits): its widest axis chooses the split without a pass over the points.
  /// Leaves get their points' tight box, and every other node the union of its
  /// children's. A node at `stopLevel` above the leaves keeps its region in its box
  /// slot for the task that builds it.
  private func build(
    node: Int, lo: Int, hi: Int, level: Int, stopLevel: Int, region: KDTree.Box
  ) {
    guard let entries, let boxes, !stopsBefore(size: hi - lo) else { return }
    if level == depth {
      boxes[node] = leafBox(entries, lo, hi)
      return
    }
    if level == stopLevel {
      boxes[node] = region
      return
    }
    let mid = lo + (hi - lo) / 2
    let axis = region.widestAxis
    select(entries, lo, hi, mid, axis)
    let split = entries[mid].coordinate(axis)
    var below = region
    var above = region
    below.setHigh(axis, split)
    above.setLow(axis, split)
    build(
      node: 2 * node + 1, lo: lo, hi: mid, level: level + 1, stopLevel: stopLevel, region: below)
    build(
      node: 2 * node + 2, lo: mid, hi: hi, level: level + 1, stopLevel: stopLevel, region: above)
    boxes[node] = boxes[2 * node + 1]
    boxes[node].formUnion(boxes[2 * node + 2])
  }

  /// Reorders `lo..<hi` so that the entry at `k` is the one a sort along `axis` would put
  /// there, with no greater coordinate before it and no smaller one after it.
  private func select(
    _ entries: UnsafeMutablePointer<KDTree.Entry>, _ lo: Int, _ hi: Int, _ k: Int, _ axis: Int
  ) {
    // One copy of the loop an axis, so that the inner loops read one field directly.
    switch axis {
    case 0: select(entries, lo, hi, k, \.x)
    case 1: select(entries, lo, hi, k, \.y)
    default: select(entries, lo, hi, k, \.z)
    }
  }

  /// Hoare's selection with a median-of-three pivot, along `coordinate`.
  @inline(__always)
  private func select(
    _ entries: UnsafeMutablePointer<KDTree.Entry>, _ lo: Int, _ hi: Int, _ k: Int,
    _ coordinate: KeyPath<KDTree.Entry, Float>
  ) {
    var left = lo
    var right = hi - 1
    while right > left {
      let a = entries[left][keyPath: coordinate]
      let b = entries[left + (right - left) / 2][keyPath: coordinate]
      let c = entries[right][keyPath: coordinate]
      let pivot = max(min(a, b), min(max(a, b), c))
      var i = left
      var j = right
      while i <= j {
        while entries[i][keyPath: coordinate] < pivot { i += 1 }
        while entries[j][keyPath: coordinate] > pivot { j -= 1 }
        if i <= j {
          entries.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      // Now left...j ≤ pivot, i...right ≥ pivot and anything between equals the pivot.
      if k <= j {
        right = j
      } else if k >= i {
        left = i
      } else {
        return
      }
    }
  }
}

extension UnsafeMutablePointer {
  @inline(__always) fileprivate func swapAt(_ i: Int, _ j: Int) {
    let t = self[i]
    self[i] = self[j]
    self[j] = t
  }
}
