import Foundation

/// A fixed-size, uninitialised buffer of trivial values that parallel tasks write, each
/// task only its own indices; backed by huge pages where the kernel offers them.
///
/// The voxel merge writes its scratch buffers at scattered places, and with 4 KiB pages
/// many such accesses would also miss the TLB; the crop fills its mask with it. `T` must
/// be a trivial type (no references).
final class VoxelBuffer<T>: @unchecked Sendable {
  let base: UnsafeMutablePointer<T>
  let count: Int

  init(count: Int) {
    self.count = count
    let byteCount = max(count, 1) * MemoryLayout<T>.stride
    let alignment = byteCount >= 4 << 20 ? 2 << 20 : max(MemoryLayout<T>.alignment, 16)
    let raw = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
    adviseHugePages(raw, byteCount: byteCount)
    base = raw.bindMemory(to: T.self, capacity: max(count, 1))
  }

  convenience init(count: Int, repeating value: T) {
    self.init(count: count)
    base.initialize(repeating: value, count: count)
  }

  deinit { UnsafeMutableRawPointer(base).deallocate() }

  subscript(index: Int) -> T {
    get { base[index] }
    set { base[index] = newValue }
  }

  /// The values as an array (one copy).
  var array: [T] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
