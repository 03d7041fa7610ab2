import Foundation

/// The voxel keys of one frame's points, worked out once for every partition of a
/// voxel merge, on every core, before the partitions take their points.
///
/// Each partition of `VoxelAccumulator` and `IngestMerge` used to compute the key and
/// hash of every point of the frame and keep only its own: with two partitions each
/// key was computed twice. Here the frame is split by point range instead, each core
/// keying its own range, and each point is marked with the partition its voxel goes to
/// and whether it is in the voxel of the point before it (neighbouring pixels often
/// are; such a point needs no lookup). "The point before" is the previous point that
/// is kept and finite, across range boundaries too, as one pass in order would see it.
///
/// The buffers are kept from frame to frame, so a frame costs no allocation; each
/// range writes only its own indices.
final class VoxelFrameKeys: @unchecked Sendable {
  /// An owner for a point that is not merged: left out by the keep mask, or with a NaN
  /// or infinite coordinate.
  static let skipped: UInt8 = .max

  /// What `compute` gave for each point of the last frame, read by the partitions.
  struct Buffers: @unchecked Sendable {
    let keys: UnsafeMutablePointer<WideVoxelKeying.Key>
    /// The key's hash (0 for a repeat, which takes its voxel from the point before
    /// it).
    let hashes: UnsafeMutablePointer<UInt64>
    /// The partition each point goes to, or `skipped`.
    let owners: UnsafeMutablePointer<UInt8>
    /// Whether each point is in the voxel of the kept finite point before it.
    let repeats: UnsafeMutablePointer<Bool>

    init(capacity: Int) {
      keys = .allocate(capacity: capacity)
      hashes = .allocate(capacity: capacity)
      owners = .allocate(capacity: capacity)
      repeats = .allocate(capacity: capacity)
    }

    func deallocate() {
      keys.deallocate()
      hashes.deallocate()
      owners.deallocate()
      repeats.deallocate()
    }
  }

  /// The last frame's keys; valid until the next `compute`.
  private(set) var buffers = Buffers(capacity: 0)
  private var capacity = 0

  let keying: WideVoxelKeying
  let partitions: Int

  /// Frames of fewer points are keyed on the calling thread alone.
  static let parallelMinimumPoints = 4096

  /// Keys for voxels of `keying`'s size, split between `partitions` partitions
  /// (1…254) by the top bits of their hash.
  init(keying: WideVoxelKeying, partitions: Int) {
    precondition((1...254).contains(partitions), "partitions out of range")
    self.keying = keying
    self.partitions = partitions
  }

  /// The partition of the voxel whose key hashes to `hash`.
  @inline(__always)
  func owner(ofHash hash: UInt64) -> Int {
    partitions == 1 ? 0 : Int(hash >> 56) % partitions
  }

  deinit { buffers.deallocate() }

  /// Keys the points of `positions` that `keep` marks (nil: all of them) into
  /// `buffers`.
  ///
  /// - Parameter ranges: how many ranges the frame is split into (nil: one a core, at
  ///   most 4, or one for a small frame). The result does not depend on it.
  func compute(_ positions: [Point3], keep: [Bool]?, ranges: Int? = nil) {
    let count = positions.count
    if capacity < count {
      buffers.deallocate()
      buffers = Buffers(capacity: count)
      capacity = count
    }
    let cores = min(Parallel.cores, 4)
    let tasks = max(
      1, min(ranges ?? (count >= Self.parallelMinimumPoints ? cores : 1), max(count, 1)))
    let out = buffers
    let body = { @Sendable (task: Int) in
      self.key(
        positions, keep: keep, in: (count * task / tasks)..<(count * (task + 1) / tasks),
        into: out)
    }
    if tasks > 1 {
      Parallel.perform(iterations: tasks, body)
    } else {
      body(0)
    }
  }

  private func key(_ positions: [Point3], keep: [Bool]?, in range: Range<Int>, into out: Buffers) {
    // The kept finite point before the range, as the one before its first point.
    var last: WideVoxelKeying.Key?
    var lastOwner = Self.skipped
    var k = range.lowerBound
    while k > 0 && last == nil {
      k -= 1
      if keep?[k] ?? true, let key = keying.key(positions[k]) {
        last = key
        lastOwner = UInt8(owner(ofHash: keying.hash(key)))
      }
    }
    for k in range {
      guard keep?[k] ?? true, let key = keying.key(positions[k]) else {
        out.owners[k] = Self.skipped
        continue
      }
      out.keys[k] = key
      if key == last {
        out.hashes[k] = 0
        out.repeats[k] = true
        out.owners[k] = lastOwner
      } else {
        let hash = keying.hash(key)
        out.hashes[k] = hash
        out.repeats[k] = false
        lastOwner = UInt8(owner(ofHash: hash))
        out.owners[k] = lastOwner
        last = key
      }
    }
  }
}
