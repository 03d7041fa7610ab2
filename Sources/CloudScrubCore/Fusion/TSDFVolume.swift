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
  /// The last integration that touched each block, so that a frame lists a block once.
  private var lastTouch: [Int32] = []
  private var integrations: Int32 = 0

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
    integrations += 1
    let touched = try touchBlocks(frame)
    guard !touched.isEmpty else { return }
    let blocks = TouchedBlocks(
      coordinates: touched.map { blockCoordinates[$0] }, voxels: touched.map { voxels(ofBlock: $0) }
    )
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let chunks = cores > 1 ? min(touched.count, 4 * cores) : 1
    let integrator = VoxelIntegrator(frame: frame, voxelSize: voxelSize, truncation: truncation)
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      let range = (touched.count * chunk / chunks)..<(touched.count * (chunk + 1) / chunks)
      for k in range {
        integrator.update(blocks.voxels[k], coordinate: blocks.coordinates[k])
      }
    }
  }

  /// The blocks a frame's depths touch, each once, made where they are new. The image's
  /// rows of tiles are walked in parts on every core, each part listing the blocks its
  /// rays pass through (mostly once each); the lists are then looked up in order.
  private func touchBlocks(_ frame: FusionFrame) throws(FusionError) -> [Int] {
    let tileRows = (frame.height + Self.tile - 1) / Self.tile
    let parts = max(1, min(tileRows, ProcessInfo.processInfo.activeProcessorCount))
    let found = FoundBlocks(parts: parts)
    defer { found.free() }
    let (voxelSize, truncation, listingStride) = (voxelSize, truncation, listingStride)
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      // The last key seen in each slot, so that a block met again soon is listed once.
      var seen = [UInt64](repeating: .max, count: 1024)
      var list: [(SIMD3<Int32>, UInt64)] = []
      let rows = (tileRows * part / parts)..<(tileRows * (part + 1) / parts)
      Self.forEachBlock(
        of: frame, voxelSize: voxelSize, truncation: truncation, tileRows: rows,
        pixelStride: listingStride
      ) { block, key in
        let slot = Int(truncatingIfNeeded: BlockTable.hash(key) >> 54)
        guard seen[slot] != key else { return }
        seen[slot] = key
        list.append((block, key))
      }
      found.lists[part] = list
    }
    var touched: [Int] = []
    let stamp = integrations
    var stamps = lastTouch
    lastTouch = []
    defer { lastTouch = stamps }
    for list in found.lists {
      for (block, key) in list {
        let number = try blockNumber(making: block, key: key)
        if number == stamps.count { stamps.append(-1) }
        if stamps[number] != stamp {
          stamps[number] = stamp
          touched.append(number)
        }
      }
    }
    return touched
  }

  /// Pixels are sampled for `forEachBlock` in square tiles of this side.
  static let tile = 8

  /// Calls `visit` with the coordinate and key of each block a frame's depths touch
  /// (sometimes more than once): every block that each sampled pixel's ray passes
  /// through from `truncation` before its depth to `truncation` past it. Pixels are
  /// sampled in tiles of `tile` × `tile`, each tile as sparsely as its deepest pixel
  /// allows for neighbouring samples to lie at most a quarter of a block apart. Only
  /// the rows of tiles in `tileRows` are walked, every row when it is nil. A
  /// `pixelStride` samples every so many pixels of each tile instead.
  static func forEachBlock(
    of frame: FusionFrame, voxelSize: Float, truncation: Float, tileRows: Range<Int>? = nil,
    pixelStride: Int? = nil,
    _ visit: (SIMD3<Int32>, UInt64) -> Void
  ) {
    let blockSize = voxelSize * Float(blockSide)
    // A ray's stretch is 2·truncation long: it crosses at most one block boundary on each
    // axis per block of length, and one more.
    let cellsPerRay = 4 + 3 * Int((2 * truncation / blockSize).rounded(.up))
    let (origin, axes) = frame.cameraInWorld
    let inverseBlock = 1 / blockSize
    // A pixel's footprint per metre of depth, in metres.
    let footprint = Float(frame.stride) / min(frame.fx, frame.fy)
    let tile = Self.tile
    let tileRows = tileRows ?? 0..<((frame.height + tile - 1) / tile)
    // The last key of each block along the ray, by its place along it: neighbouring
    // pixels' rays mostly pass through the same blocks in the same order.
    var lastKeys = [UInt64](repeating: .max, count: cellsPerRay)
    @inline(__always) func floor(_ x: Float) -> Int32 {
      let t = Int32(x)
      return x < Float(t) ? t - 1 : t
    }
    frame.depths.withUnsafeBufferPointer { depths in
      for tileRow in Swift.stride(
        from: tileRows.lowerBound * tile, to: min(tileRows.upperBound * tile, frame.height),
        by: tile)
      {
        for tileColumn in Swift.stride(from: 0, to: frame.width, by: tile) {
          let rows = tileRow..<min(tileRow + tile, frame.height)
          let columns = tileColumn..<min(tileColumn + tile, frame.width)
          var deepest: Float = 0
          for row in rows {
            for column in columns { deepest = max(deepest, depths[row * frame.width + column]) }
          }
          guard deepest > 0 else { continue }
          let step =
            pixelStride ?? max(1, min(tile, Int(blockSize / (4 * deepest * footprint))))
          for row in Swift.stride(from: rows.lowerBound, to: rows.upperBound, by: step) {
            let rayY = (Float(row * frame.stride) + 0.5 - frame.cy) / frame.fy
            for column in Swift.stride(from: columns.lowerBound, to: columns.upperBound, by: step) {
              let d = depths[row * frame.width + column]
              guard d > 0 else { continue }
              let rayX = (Float(column * frame.stride) + 0.5 - frame.cx) / frame.fx
              // The ray's direction scaled so that one unit is one metre of depth.
              let ray = axes.0 * rayX + axes.1 * rayY + axes.2
              let reach = truncation / (ray * ray).sum().squareRoot()
              let a = (origin + ray * max(d - reach, 0)) * inverseBlock
              let b = (origin + ray * (d + reach)) * inverseBlock
              guard abs(a.x) < 1e7, abs(a.y) < 1e7, abs(a.z) < 1e7, abs(b.x) < 1e7,
                abs(b.y) < 1e7, abs(b.z) < 1e7
              else { continue }
              // The blocks from a to b in order, each boundary crossed at its fraction of
              // the way (`next`, one axis at a time).
              var block = SIMD3<Int32>(floor(a.x), floor(a.y), floor(a.z))
              let along = b - a
              var next = SIMD3<Float>(repeating: .infinity)
              var across = SIMD3<Float>(repeating: .infinity)
              var direction = SIMD3<Int32>(repeating: 0)
              for axis in 0..<3 where along[axis] != 0 {
                let positive = along[axis] > 0
                direction[axis] = positive ? 1 : -1
                let boundary = Float(block[axis] + (positive ? 1 : 0))
                next[axis] = (boundary - a[axis]) / along[axis]
                across[axis] = abs(1 / along[axis])
              }
              for place in 0..<cellsPerRay {
                if let key = key(block), key != lastKeys[place] {
                  lastKeys[place] = key
                  visit(block, key)
                }
                let axis =
                  next.x <= next.y ? (next.x <= next.z ? 0 : 2) : (next.y <= next.z ? 1 : 2)
                guard next[axis] <= 1 else { break }
                block[axis] += direction[axis]
                next[axis] += across[axis]
              }
            }
          }
        }
      }
    }
  }
}

/// Each part's list of the blocks its rays pass through, written by that part alone.
private struct FoundBlocks: @unchecked Sendable {
  let lists: UnsafeMutableBufferPointer<[(SIMD3<Int32>, UInt64)]>

  init(parts: Int) {
    lists = .allocate(capacity: parts)
    lists.initialize(repeating: [])
  }

  func free() {
    lists.deinitialize()
    lists.deallocate()
  }
}

/// The blocks one integration updates, with their storage's addresses.
private struct TouchedBlocks: @unchecked Sendable {
  let coordinates: [SIMD3<Int32>]
  let voxels: [BlockVoxels]
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
