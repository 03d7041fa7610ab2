import Foundation

extension TSDFVolume {
  /// The blocks a batch of frames' depths touch, each once, made where they are new,
  /// with the frames that touch each (bit f for frame f, at most 64 frames). The image's
  /// rows of tiles of every frame are walked in parts on every core, each part listing
  /// the blocks its rays pass through (mostly once each); the lists are then looked up in
  /// order.
  func touchBlocks(_ frames: [FusionFrame]) throws(FusionError) -> (
    numbers: [Int], frames: [UInt64]
  ) {
    let cores = Parallel.cores
    let tileRows = frames.map { ($0.height + Self.tile - 1) / Self.tile }
    // Four parts a core in all, so that a part with far depths (more rays) is not left
    // to one core at the end.
    let partsPerFrame = max(1, (4 * cores + frames.count - 1) / frames.count)
    let found = FoundBlocks(parts: frames.count * partsPerFrame)
    defer { found.free() }
    let (voxelSize, truncation, listingStride) = (voxelSize, truncation, listingStride)
    Parallel.perform(iterations: frames.count * partsPerFrame) { part in
      let (f, piece) = part.quotientAndRemainder(dividingBy: partsPerFrame)
      let rows = tileRows[f]
      let parts = min(partsPerFrame, rows)
      guard piece < parts else { return }
      // The last key seen in each slot, so that a block met again soon is listed once.
      var seen = [UInt64](repeating: .max, count: 1024)
      var list: [(SIMD3<Int32>, UInt64)] = []
      Self.forEachBlock(
        of: frames[f], voxelSize: voxelSize, truncation: truncation,
        tileRows: (rows * piece / parts)..<(rows * (piece + 1) / parts),
        pixelStride: listingStride
      ) { block, key in
        let slot = Int(truncatingIfNeeded: BlockTable.hash(key) >> 54)
        guard seen[slot] != key else { return }
        seen[slot] = key
        list.append((block, key))
      }
      found.lists[part] = list
    }
    batches += 1
    let stamp = batches
    var numbers: [Int] = []
    var touching: [UInt64] = []
    for part in 0..<found.lists.count {
      let bit = UInt64(1) << (part / partsPerFrame)
      for (block, key) in found.lists[part] {
        let number = try blockNumber(making: block, key: key)
        if number == lastTouch.count { lastTouch.append((batch: -1, place: 0)) }
        if lastTouch[number].batch != stamp {
          lastTouch[number] = (batch: stamp, place: Int32(numbers.count))
          numbers.append(number)
          touching.append(0)
        }
        touching[Int(lastTouch[number].place)] |= bit
      }
    }
    return (numbers, touching)
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
    frame.pixels.withUnsafeBufferPointer { pixels in
      for tileRow in Swift.stride(
        from: tileRows.lowerBound * tile, to: min(tileRows.upperBound * tile, frame.height),
        by: tile)
      {
        for tileColumn in Swift.stride(from: 0, to: frame.width, by: tile) {
          let rows = tileRow..<min(tileRow + tile, frame.height)
          let columns = tileColumn..<min(tileColumn + tile, frame.width)
          var deepest: Float = 0
          for row in rows {
            for column in columns {
              deepest = max(deepest, pixels[row * frame.width + column].depth)
            }
          }
          guard deepest > 0 else { continue }
          let step =
            pixelStride ?? max(1, min(tile, Int(blockSize / (4 * deepest * footprint))))
          for row in Swift.stride(from: rows.lowerBound, to: rows.upperBound, by: step) {
            let rayY = (Float(row * frame.stride) + 0.5 - frame.cy) / frame.fy
            for column in Swift.stride(from: columns.lowerBound, to: columns.upperBound, by: step) {
              let d = pixels[row * frame.width + column].depth
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
