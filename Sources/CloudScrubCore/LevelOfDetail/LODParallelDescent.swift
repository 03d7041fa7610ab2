import Foundation

/// The descent of a piece of points on several threads, making exactly the tree the
/// one-thread descent makes.
///
/// Why it is the same tree: within a piece the tree only gains leaves (splits wait
/// until the piece is in), and the subtrees under the root's children share no node.
/// So the root's decisions are taken first, one point after another in order (phase
/// 1); then each child subtree takes its own points, still in order, on a thread of its
/// own (phase 2): each node sees the same points in the same order as on one thread,
/// so it keeps the same ones. A child a point finds missing is not made on the spot but
/// noted with the point's index; a new child is a leaf, so the points after it that
/// reach it stop there, as they would. Afterwards the new children get their node
/// numbers in the order of the points that asked for them, which is the order the
/// one-thread descent makes them in.
enum LODParallelDescent {
  /// A child to make: wanted first by point `point`, as octant `octant` of `parent`;
  /// the points that go to it carry `code` (negative) in the targets until then.
  struct NewChild {
    var point: Int
    var parent: Int
    var octant: Int
    var code: Int32
  }

  /// Pending codes are −(1 + k × groups + group), so a piece stays under this.
  static let largestPiece = 1 << 26
  /// Phase 2 groups at most (one a core), plus phase 1's group.
  static let groups = 16

  /// Descends points `0..<end` of `positions` from `root` (inner), where `end` is the
  /// first point outside `rootCube` (or the count): the caller goes on from there on
  /// one thread. Writes `targets` (node numbers, or the codes of `NewChild`ren).
  ///
  /// - Returns: the points done, and the children to make, in any order.
  static func run(
    _ positions: UnsafeBufferPointer<Point3>, root: Int, rootCube: LODCube,
    descent: LODDescent, targets: LODSharedTargets, cores: Int
  ) -> (end: Int, newChildren: [NewChild]) {
    // Phase 1: the root's decisions, in order; points bound deeper are bucketed by the
    // root's child they go to.
    var buckets = [[Int32]](repeating: [], count: 8)
    var newChildren: [NewChild] = []
    var pendingAtRoot = [Int32](repeating: 0, count: 8)
    let rootGroup = Int32(groups - 1)
    var end = positions.count
    for i in 0..<positions.count {
      let p = positions[i]
      guard p.x.isFinite && p.y.isFinite && p.z.isFinite else {
        targets.base[i] = Int32(root)
        continue
      }
      let point = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z))
      guard rootCube.contains(point) else {
        end = i
        break
      }
      let step = descent.step(point, at: root)
      if step.kept {
        targets.base[i] = Int32(root)
      } else if step.next >= 0 {
        buckets[step.octant].append(Int32(i))
      } else {
        if pendingAtRoot[step.octant] == 0 {
          let code = -(1 + Int32(newChildren.count) * Int32(groups) + rootGroup)
          newChildren.append(NewChild(point: i, parent: root, octant: step.octant, code: code))
          pendingAtRoot[step.octant] = code
        }
        targets.base[i] = pendingAtRoot[step.octant]
      }
    }
    // Phase 2: the subtrees in groups of about equal points, a thread a group.
    let groupCount = max(1, min(cores, groups - 1, buckets.filter { !$0.isEmpty }.count))
    let members = LODPieceSort.dealt(buckets.map(\.count), into: groupCount)
    let found = ParallelSlots<[NewChild]>(count: groupCount, initial: [])
    let frozenBuckets = buckets
    let shared = LODSharedPositions(base: positions)
    Parallel.perform(iterations: groupCount) { group in
      var made: [NewChild] = []
      var pending: [Int: Int32] = [:]
      for octant in members[group] {
        let subtree = Int(descent.children[root * 8 + octant])
        for index in frozenBuckets[octant] {
          let i = Int(index)
          let p = shared.base[i]
          let point = SIMD3<Double>(Double(p.x), Double(p.y), Double(p.z))
          switch descent.descend(point, from: subtree) {
          case .kept(let node):
            targets.base[i] = Int32(node)
          case .missingChild(let parent, let childOctant):
            let key = parent * 8 + childOctant
            if let code = pending[key] {
              targets.base[i] = code
            } else {
              let code = -(1 + Int32(made.count) * Int32(groups) + Int32(group))
              made.append(NewChild(point: i, parent: parent, octant: childOctant, code: code))
              pending[key] = code
              targets.base[i] = code
            }
          }
        }
      }
      found[group] = made
    }
    for group in 0..<groupCount { newChildren += found[group] }
    return (end, newChildren)
  }
}
