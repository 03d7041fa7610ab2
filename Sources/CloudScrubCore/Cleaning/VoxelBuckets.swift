import Foundation

/// The finite points of a cloud scattered into buckets by a hash of their voxel key,
/// each bucket in input order (a stable counting sort).
struct VoxelBuckets: Sendable {
  /// Bucket `b` is `entries[start[b]..<start[b + 1]]`.
  let entries: VoxelBuffer<VoxelEntry>
  let start: [Int]

  /// About this many points a bucket keeps a bucket's voxels in a core's cache.
  static let defaultPointsPerBucket = 1 << 14
  private static let dropped = UInt16.max

  /// Scatters the points; nil once `stop` says to stop (asked every few thousand
  /// points in each pass).
  init?<K: VoxelKeying>(
    _ inputs: VoxelInputs, keying: K, chunkCount: Int, pointsPerBucket: Int,
    stop: StopCheck? = nil
  ) {
    let count = inputs.positions.count
    let bucketCount = max(1, min(4096, count / max(1, pointsPerBucket)))
    // Pass 1: each point's bucket, and each chunk's bucket sizes.
    let bucketOf = VoxelBuffer<UInt16>(count: count)
    let histograms = ParallelSlots<[Int]>(count: chunkCount, initial: [])
    Self.forEachChunk(count, chunkCount) { chunk, range in
      var histogram = [Int](repeating: 0, count: bucketCount)
      inputs.positions.withUnsafeBufferPointer { positions in
        for index in range {
          if StopChecks.due(stop, at: index) { return }
          guard let key = keying.key(positions[index]) else {
            bucketOf[index] = Self.dropped
            continue
          }
          // High hash bits pick the bucket; the tables use the low ones.
          let bucket = Int(
            truncatingIfNeeded: ((keying.hash(key) >> 32) &* UInt64(bucketCount)) >> 32)
          bucketOf[index] = UInt16(truncatingIfNeeded: bucket)
          histogram[bucket] += 1
        }
      }
      histograms[chunk] = histogram
    }
    // A chunk that stopped left points without a bucket: scatter nothing.
    if StopChecks.now(stop) { return nil }
    // Where each chunk writes in each bucket: buckets in order, chunks in order within.
    var start = [Int](repeating: 0, count: bucketCount + 1)
    var cursors = [[Int]](repeating: [Int](repeating: 0, count: bucketCount), count: chunkCount)
    var total = 0
    for bucket in 0..<bucketCount {
      start[bucket] = total
      for chunk in 0..<chunkCount {
        cursors[chunk][bucket] = total
        total += histograms[chunk][bucket]
      }
    }
    start[bucketCount] = total
    // Pass 2: scatter.
    let entries = VoxelBuffer<VoxelEntry>(count: total)
    let chunkCursors = cursors
    Self.forEachChunk(count, chunkCount) { chunk, range in
      var cursor = chunkCursors[chunk]
      let hasColors = !inputs.colors.isEmpty
      let hasConfidence = !inputs.confidence.isEmpty
      inputs.positions.withUnsafeBufferPointer { positions in
        inputs.colors.withUnsafeBufferPointer { colors in
          inputs.confidence.withUnsafeBufferPointer { confidence in
            for index in range {
              if StopChecks.due(stop, at: index) { return }
              let bucket = bucketOf[index]
              guard bucket != Self.dropped else { continue }
              var packed: UInt32 = hasConfidence ? UInt32(confidence[index]) << 24 : 0xFF00_0000
              if hasColors {
                let color = colors[index]
                packed |= UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16
              }
              let slot = cursor[Int(bucket)]
              entries[slot] = VoxelEntry(
                index: UInt32(truncatingIfNeeded: index), position: positions[index],
                colorAndConfidence: packed)
              cursor[Int(bucket)] = slot + 1
            }
          }
        }
      }
    }
    if StopChecks.now(stop) { return nil }
    self.entries = entries
    self.start = start
  }

  /// Calls `body(chunk, range)` for `chunkCount` consecutive ranges covering `0..<count`,
  /// over the cores. Chunks are handed out as threads come free, so that a core busy with
  /// another process does not hold the others up.
  static func forEachChunk(
    _ count: Int, _ chunkCount: Int, _ body: @Sendable (Int, Range<Int>) -> Void
  ) {
    guard chunkCount > 1 else {
      body(0, 0..<count)
      return
    }
    Parallel.perform(iterations: chunkCount) { chunk in
      body(chunk, (count * chunk / chunkCount)..<(count * (chunk + 1) / chunkCount))
    }
  }

  /// The voxels of every bucket, each bucket's in the order of their first point; nil
  /// once `stop`, asked before each bucket, says to stop.
  static func accumulate<K: VoxelKeying>(
    _ buckets: VoxelBuckets, _ inputs: VoxelInputs, keying: K, taskCount: Int,
    stop: StopCheck? = nil
  ) -> [VoxelBucketVoxels<K.Key>]? {
    let bucketCount = buckets.start.count - 1
    let results = ParallelSlots<VoxelBucketVoxels<K.Key>?>(count: bucketCount, initial: nil)
    // A few groups a task, for the same reason as in `forEachChunk`.
    let groupCount = taskCount > 1 ? min(bucketCount, 4 * taskCount) : 1
    forEachChunk(bucketCount, groupCount) { _, range in
      var table = VoxelTable<K.Key>(extraStride: inputs.extraStride)
      defer { table.free() }
      for bucket in range {
        if StopChecks.now(stop) { return }
        let first = buckets.start[bucket]
        let entryCount = buckets.start[bucket + 1] - first
        table.reset(entryCount: entryCount)
        table.accumulate(
          UnsafeBufferPointer(start: buckets.entries.base + first, count: entryCount), inputs,
          keying: keying)
        results[bucket] = VoxelBucketVoxels(table)
      }
    }
    if StopChecks.now(stop) { return nil }
    return (0..<bucketCount).compactMap { results[$0] }
  }
}

/// One bucket's finished voxels, copied out of the task's table.
final class VoxelBucketVoxels<Key: Equatable & Sendable>: @unchecked Sendable {
  let records: UnsafeMutablePointer<VoxelRecord<Key>>
  let extras: UnsafeMutablePointer<Double>
  let count: Int
  let extraStride: Int

  init(_ table: VoxelTable<Key>) {
    count = table.count
    extraStride = table.extraStride
    records = .allocate(capacity: max(count, 1))
    records.initialize(from: table.records, count: count)
    extras = .allocate(capacity: max(count * extraStride, 1))
    extras.initialize(from: table.extras, count: count * extraStride)
  }

  deinit {
    records.deallocate()
    extras.deallocate()
  }

  /// The accumulated extra `k` (see `VoxelInputs.extraStride`) of voxel `slot`.
  func extra(_ slot: Int, _ k: Int) -> Double { extras[slot * extraStride + k] }
}
