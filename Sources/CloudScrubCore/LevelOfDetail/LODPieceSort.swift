import Foundation

/// A piece's points sorted by the node they go to, keeping their order within each
/// node (a counting sort), so that each node's share is one run to append.
///
/// On several threads, the nodes are dealt into groups of about equal points, one a
/// thread: each thread reads every point's target and copies only its own nodes'
/// points, so no two threads write the same place, and each share comes out exactly as
/// one thread would write it. The shares are then appended to their nodes the same way,
/// a group a thread (`forEachShare`).
final class LODPieceSort {
  /// Node slot of the piece (the caller's numbering of the nodes it touches) whose
  /// points are `starts[slot]..<starts[slot + 1]`.
  let starts: [Int]
  /// The slots of each thread's group.
  let groups: [[Int]]
  private let buffers: LODSortBuffers

  /// Sorts `points` (whose shorter columns are filled as `PointColumns` says) by slot:
  /// `slotOf[targets[i]]` is point i's slot, `counts[slot]` its points.
  init(
    _ points: PointColumns, targets: UnsafeBufferPointer<Int32>,
    slotOf: UnsafeBufferPointer<Int32>, counts: [Int], threads: Int
  ) {
    var starts = [0]
    starts.reserveCapacity(counts.count + 1)
    for count in counts { starts.append(starts[starts.count - 1] + count) }
    self.starts = starts
    let frozenStarts = starts
    let groupCount = max(1, min(threads, counts.count))
    let groups = Self.dealt(counts, into: groupCount)
    var groupOfSlot = [Int](repeating: 0, count: counts.count)
    for (group, slots) in groups.enumerated() {
      for slot in slots { groupOfSlot[slot] = group }
    }
    self.groups = groups
    let total = starts[starts.count - 1]
    let buffers = LODSortBuffers(count: total, intensity: points.hasIntensity)
    self.buffers = buffers
    let source = LODSortSource(points: points, targets: targets, slotOf: slotOf)
    let frozenGroupOf = groupOfSlot
    let fill = { @Sendable (group: Int) in
      var cursor = frozenStarts
      let points = source.points
      let n = source.targets.count
      let intensity = buffers.intensity
      for i in 0..<n {
        let slot = Int(source.slotOf[Int(source.targets[i])])
        guard groupCount == 1 || frozenGroupOf[slot] == group else { continue }
        let at = cursor[slot]
        cursor[slot] = at + 1
        buffers.positions[at] = points.positions[i]
        buffers.colors[at] = points.color(at: i)
        buffers.confidence[at] = points.confidence(at: i)
        if let intensity { intensity[at] = points.intensity(at: i) }
      }
    }
    if groupCount > 1 {
      Parallel.perform(iterations: groupCount) { fill($0) }
    } else {
      fill(0)
    }
  }

  deinit { buffers.deallocate() }

  /// The items with a load (their indices in `loads`) dealt into `groupCount` groups of
  /// about equal load: the heaviest first, each to the group lightest so far.
  static func dealt(_ loads: [Int], into groupCount: Int) -> [[Int]] {
    var groups = [[Int]](repeating: [], count: max(1, groupCount))
    var totals = [Int](repeating: 0, count: groups.count)
    for item in loads.indices.sorted(by: { loads[$0] > loads[$1] }) where loads[item] > 0 {
      let lightest = totals.indices.min { totals[$0] < totals[$1] } ?? 0
      groups[lightest].append(item)
      totals[lightest] += loads[item]
    }
    return groups
  }

  /// Calls `body` with each slot and its share, the groups on threads of their own
  /// (one thread when there is one group); within a group, in the group's order.
  func forEachShare(_ body: @Sendable (_ slot: Int, _ share: PointColumns) -> Void) {
    let buffers = self.buffers
    let starts = self.starts
    let groups = self.groups
    @Sendable func run(_ group: Int) {
      for slot in groups[group] {
        body(slot, buffers.columns[starts[slot]..<starts[slot + 1]])
      }
    }
    if groups.count > 1 {
      Parallel.perform(iterations: groups.count) { run($0) }
    } else {
      run(0)
    }
  }
}

/// The sorted points, written by the sort's threads at places no other thread writes.
private struct LODSortBuffers: @unchecked Sendable {
  let positions: UnsafeMutableBufferPointer<Point3>
  let colors: UnsafeMutableBufferPointer<RGB8>
  let confidence: UnsafeMutableBufferPointer<UInt8>
  /// Nil when the piece has no intensity.
  let intensity: UnsafeMutableBufferPointer<UInt8>?

  init(count: Int, intensity: Bool) {
    positions = .allocate(capacity: count)
    colors = .allocate(capacity: count)
    confidence = .allocate(capacity: count)
    self.intensity = intensity ? .allocate(capacity: count) : nil
  }

  /// The sorted points (every column as long as the piece).
  var columns: PointColumns {
    PointColumns(
      positions: UnsafeBufferPointer(positions), colors: UnsafeBufferPointer(colors),
      confidence: UnsafeBufferPointer(confidence),
      intensity: intensity.map { UnsafeBufferPointer($0) }
        ?? UnsafeBufferPointer(start: nil, count: 0))
  }

  func deallocate() {
    positions.deallocate()
    colors.deallocate()
    confidence.deallocate()
    intensity?.deallocate()
  }
}

/// The piece as the sort's threads read it.
private struct LODSortSource: @unchecked Sendable {
  let points: PointColumns
  let targets: UnsafeBufferPointer<Int32>
  let slotOf: UnsafeBufferPointer<Int32>
}
