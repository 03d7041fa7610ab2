import Foundation

/// One voxel of a `TSDFVolume`: the truncated signed distance as a fraction of the
/// truncation (−1…1, positive in front of the surface), the summed weight behind it,
/// and the weighted mean colour in 1/256 steps.
public struct TSDFVoxel: Equatable, Sendable {
  public var tsdf: Float = 1
  public var weight: Float = 0
  public var red: UInt16 = 0
  public var green: UInt16 = 0
  public var blue: UInt16 = 0

  public init() {}

  public var color: RGB8 {
    RGB8(
      UInt8(truncatingIfNeeded: red >> 8), UInt8(truncatingIfNeeded: green >> 8),
      UInt8(truncatingIfNeeded: blue >> 8))
  }
}

/// A truncated signed distance volume of sparse voxel blocks: blocks of 8³ voxels are
/// made only where a frame's depth lies, found through a hash table, so memory follows
/// the surface seen, not the scene's bounding box.
///
/// Voxel (i, j, k) covers [i·s, (i+1)·s) × … for voxel size s and is sampled at its
/// centre. Integration is projective: a voxel's distance is the depth of the pixel its
/// centre projects to minus its own depth along the camera's forward axis, truncated
/// to ±`truncation` and averaged over frames with each pixel's weight
/// (`FusionFrame.weight`); voxels more than `truncation` behind the surface are left
/// as they are.
public final class TSDFVolume: @unchecked Sendable {
  public static let blockSide = 8
  public static let voxelsPerBlock = 512
  /// Blocks a page of storage; pages never move, so workers may hold their addresses.
  static let blocksPerPage = 1024
  public static let bytesPerBlock = BlockVoxels.bytes

  public let voxelSize: Float
  public let truncation: Float
  /// The most blocks this volume makes before integration fails with
  /// `FusionError.tooManyBlocks`.
  public let maxBlocks: Int
  /// Blocks are listed from every `listingStride`-th pixel of each tile in each
  /// direction; nil (the default): from as few pixels as keep neighbouring samples within
  /// a quarter of a block, so that nearly every voxel within the truncation of a depth is
  /// updated (a block the band only clips between samples may be missed). Open3D's
  /// `GetUniqueBlockCoordinates` takes every 4th pixel, which leaves more of those voxels
  /// out and carves less free space (`bench fuse` compares both).
  public let listingStride: Int?
  /// Block number by packed block coordinate (`key`).
  var blockNumbers = BlockTable()
  /// Each block's coordinate: its first voxel is this times `blockSide`.
  public private(set) var blockCoordinates: [SIMD3<Int32>] = []
  private var pages: [UnsafeMutableRawPointer] = []
  /// For each block, the last batch that touched it and its place in that batch's
  /// list, so that a batch lists a block once (`touchBlocks`).
  var lastTouch: [(batch: Int32, place: Int32)] = []
  var batches: Int32 = 0

  public init(voxelSize: Float, truncation: Float, maxBlocks: Int, listingStride: Int? = nil) {
    self.voxelSize = voxelSize
    self.truncation = truncation
    self.maxBlocks = maxBlocks
    self.listingStride = listingStride.map { max(1, $0) }
  }

  deinit {
    for page in pages { page.deallocate() }
  }

  public var blockCount: Int { blockCoordinates.count }

  /// The voxels of block `number`.
  func voxels(ofBlock number: Int) -> BlockVoxels {
    BlockVoxels(
      base: pages[number / Self.blocksPerPage] + (number % Self.blocksPerPage) * Self.bytesPerBlock)
  }

  /// The voxel at global voxel coordinate `c`, nil where no block was made.
  public func voxel(at c: SIMD3<Int32>) -> TSDFVoxel? {
    let side = Int32(Self.blockSide)
    let block = SIMD3(c.x >> 3, c.y >> 3, c.z >> 3)
    guard let key = Self.key(block), let number = blockNumbers.find(key) else { return nil }
    let local = c &- block &* side
    return voxels(ofBlock: Int(number))[Int((local.z * side + local.y) * side + local.x)]
  }

  /// Block coordinates within ±2²⁰ pack into 63 bits; farther ones have no key.
  @inline(__always)
  static func key(_ block: SIMD3<Int32>) -> UInt64? {
    let limit: Int32 = 1 << 20
    guard abs(block.x) < limit, abs(block.y) < limit, abs(block.z) < limit else { return nil }
    let x = UInt64(block.x + limit)
    let y = UInt64(block.y + limit)
    let z = UInt64(block.z + limit)
    return (x << 42) | (y << 21) | z
  }

  /// The block number of `block`, making the block when it is new.
  ///
  /// - Throws: `FusionError.tooManyBlocks` past `maxBlocks`.
  func blockNumber(making block: SIMD3<Int32>, key: UInt64) throws(FusionError) -> Int {
    if let number = blockNumbers.find(key) { return Int(number) }
    let number = blockCoordinates.count
    guard number < maxBlocks else {
      throw .tooManyBlocks(limit: maxBlocks, voxelSize: voxelSize)
    }
    if number % Self.blocksPerPage == 0 {
      let page = UnsafeMutableRawPointer.allocate(
        byteCount: Self.blocksPerPage * Self.bytesPerBlock, alignment: 64)
      for block in 0..<Self.blocksPerPage {
        BlockVoxels.initialize(at: page + block * Self.bytesPerBlock)
      }
      pages.append(page)
    }
    blockNumbers.insert(key, Int32(number))
    blockCoordinates.append(block)
    return number
  }

  /// Fuses one frame in: makes the blocks its depths fall in (within the truncation),
  /// then updates their voxels on every core.
  ///
  /// - Throws: `FusionError.tooManyBlocks` when the frame would need more blocks than
  ///   `maxBlocks`; the blocks made so far stay, and no voxel of this frame is updated.
  public func integrate(_ frame: FusionFrame) throws(FusionError) {
    try integrate([frame])
  }

  /// Frames fused as one batch: enough that a block's voxels stay in the core's cache
  /// while several frames update them, few enough that their depths and colours do too.
  /// At most 64.
  public static let framesPerBatch = 8

  /// Fuses frames in, in order, with the same result as fusing them one by one: for
  /// each batch of `framesPerBatch`, lists the blocks of all its frames, then updates
  /// each block on one core, from each frame that touches it in turn, so that a block
  /// is read once a batch.
  ///
  /// - Throws: `FusionError.tooManyBlocks` when a frame would need more blocks than
  ///   `maxBlocks`; the blocks made so far stay, and no voxel of that frame's batch or
  ///   the ones after it is updated.
  public func integrate(_ frames: [FusionFrame]) throws(FusionError) {
    for start in Swift.stride(from: 0, to: frames.count, by: Self.framesPerBatch) {
      try integrateBatch(Array(frames[start..<min(start + Self.framesPerBatch, frames.count)]))
    }
  }

  /// `integrate(_:)` for one batch.
  private func integrateBatch(_ frames: [FusionFrame]) throws(FusionError) {
    let batch = try touchBlocks(frames)
    guard !batch.numbers.isEmpty else { return }
    let count = batch.numbers.count
    let blocks = TouchedBlocks(
      coordinates: batch.numbers.map { blockCoordinates[$0] },
      voxels: batch.numbers.map { voxels(ofBlock: $0) }, frames: batch.frames)
    let cores = Parallel.cores
    let chunks = cores > 1 ? min(count, 4 * cores) : 1
    let integrators = frames.map {
      VoxelIntegrator(frame: $0, voxelSize: voxelSize, truncation: truncation)
    }
    Parallel.perform(iterations: chunks) { chunk in
      for k in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) {
        var frames = blocks.frames[k]
        while frames != 0 {
          integrators[frames.trailingZeroBitCount].update(
            blocks.voxels[k], coordinate: blocks.coordinates[k])
          frames &= frames - 1
        }
      }
    }
  }
}

/// The blocks one batch of frames updates, with their storage's addresses and, for
/// each, the frames that touch it (bit f for the batch's frame f).
private struct TouchedBlocks: @unchecked Sendable {
  let coordinates: [SIMD3<Int32>]
  let voxels: [BlockVoxels]
  let frames: [UInt64]
}

/// Why fusion could not go on.
public enum FusionError: Error, Equatable, CustomStringConvertible, Sendable {
  /// The volume would need more voxel blocks than the memory limit holds; `fitting` is
  /// a voxel size that would fit, when known.
  case tooManyBlocks(limit: Int, voxelSize: Float, fitting: Float? = nil)
  /// The truncation is longer than `FusionOptions.maximumTruncationVoxels` voxels
  /// (`longest`).
  case truncationTooLong(truncation: Float, voxelSize: Float, longest: Float)

  public var description: String {
    switch self {
    case .tooManyBlocks(let limit, let voxelSize, let fitting):
      let gigabytes = Double(limit) * Double(TSDFVolume.bytesPerBlock) / 1e9
      let hint = fitting.map { String(format: "; --voxel %.3g would fit", $0) } ?? ""
      return String(
        format: "--voxel %.3g needs more than the %d voxel blocks (%.1f GB) memory allows",
        voxelSize, limit, gigabytes) + hint
    case .truncationTooLong(let truncation, let voxelSize, let longest):
      return String(
        format: "--truncation %.3g m is more than %d voxels of %.3g m; --truncation %.3g would fit",
        truncation, Int(FusionOptions.maximumTruncationVoxels), voxelSize, longest)
    }
  }

  /// A voxel size whose blocks would fit `limit`, for a surface that needs `blocks` at
  /// `voxel`: blocks of a surface grow as the inverse square of the voxel size; a
  /// fifth more for safety, rounded up to the millimetre.
  static func fittingVoxel(_ voxel: Float, blocks: Int, limit: Int) -> Float {
    guard limit > 0 else { return voxel }
    let scale = (Float(blocks) / Float(limit)).squareRoot() * 1.2
    return (voxel * max(scale, 1) * 1000).rounded(.up) / 1000
  }
}
