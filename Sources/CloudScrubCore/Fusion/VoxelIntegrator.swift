/// Updates one block's voxels from one frame (`TSDFVolume.integrate`), with the frame's
/// pose and intrinsics in `Float`s worked out once.
struct VoxelIntegrator: @unchecked Sendable {
  let frame: FusionFrame
  let voxelSize: Float
  let truncation: Float
  /// Camera-from-world rotation rows and translation.
  private let rotation: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
  private let translation: SIMD3<Float>

  init(frame: FusionFrame, voxelSize: Float, truncation: Float) {
    self.frame = frame
    self.voxelSize = voxelSize
    self.truncation = truncation
    let c = frame.cameraFromWorld.columns
    rotation = (
      SIMD3(Float(c.0.x), Float(c.1.x), Float(c.2.x)),
      SIMD3(Float(c.0.y), Float(c.1.y), Float(c.2.y)),
      SIMD3(Float(c.0.z), Float(c.1.z), Float(c.2.z))
    )
    translation = SIMD3(Float(c.3.x), Float(c.3.y), Float(c.3.z))
  }

  /// The camera coordinates of world point `p`.
  @inline(__always)
  private func camera(_ p: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3((rotation.0 * p).sum(), (rotation.1 * p).sum(), (rotation.2 * p).sum()) + translation
  }

  /// Fuses the frame into the block at block coordinate `block`, a row of eight voxels
  /// along x at a time: their pixels' depths, then colours and confidences are gathered
  /// into vectors (the weights worked out from them, `weights`), and each field of the
  /// row is loaded, updated in the lanes whose voxel
  /// passes (in the image, a depth there, at most `truncation` behind it) and stored back
  /// as one vector. The results are those of updating the voxels one by one.
  func update(_ voxels: BlockVoxels, coordinate block: SIMD3<Int32>) {
    let side = TSDFVolume.blockSide
    let first = SIMD3<Float>(block &* Int32(side)) + 0.5
    let base = camera(first * voxelSize)
    // One voxel's step along each world axis, in camera coordinates.
    let origin = camera(.zero)
    let stepX = camera(SIMD3(voxelSize, 0, 0)) - origin
    let stepY = camera(SIMD3(0, voxelSize, 0)) - origin
    let stepZ = camera(SIMD3(0, 0, voxelSize)) - origin
    let inverseTruncation = 1 / truncation
    let inverseStride = 1 / Float(frame.stride)
    // The nearest kept pixel: column round((fx·x/z + cx − 0.5)/stride), worked out as
    // the truncation of (fx·x/z + cx)/stride + 0.5 − 0.5/stride, which is not negative
    // inside the image.
    let offset = 0.5 - 0.5 * inverseStride
    let (fx, fy) = (frame.fx * inverseStride, frame.fy * inverseStride)
    let (cx, cy) = (frame.cx * inverseStride + offset, frame.cy * inverseStride + offset)
    let width = Float(frame.width)
    let height = Float(frame.height)
    let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
    let rowX = lanes * stepX.x
    let rowY = lanes * stepX.y
    let rowZ = lanes * stepX.z
    frame.pixels.withUnsafeBufferPointer { pixels in
      // Each pixel as two 32-bit halves: its depth's bits, then colour and confidence.
      pixels.withMemoryRebound(to: UInt32.self) { halves in
        for k in 0..<side {
          for j in 0..<side {
            let start = base + stepZ * Float(k) + stepY * Float(j)
            let qz = rowZ + start.z
            let inFront = qz .> 0.001
            guard any(inFront) else { continue }
            let inverseZ = 1 / qz
            let column = fx * (rowX + start.x) * inverseZ + cx
            let row = fy * (rowY + start.y) * inverseZ + cy
            let inside =
              inFront .& (column .>= 0) .& (row .>= 0) .& (column .< width) .& (row .< height)
            guard any(inside) else { continue }
            // Lanes outside the image read pixel 0 and are masked out below.
            let pixel =
              Whole.bits(
                (Whole.truncated(row) * width + Whole.truncated(column))
                  .replacing(with: 0, where: .!inside)) &<< 1
            // Depths first: a row wholly behind the surface reads nothing more.
            var depthBits = SIMD8<UInt32>()
            for lane in 0..<8 { depthBits[lane] = halves[Int(pixel[lane])] }
            let depth = unsafeBitCast(depthBits, to: SIMD8<Float>.self)
            let distance = depth - qz
            let reached = inside .& (depth .> 0) .& (distance .>= -truncation)
            guard any(reached) else { continue }
            var color = SIMD8<UInt32>()
            for lane in 0..<8 { color[lane] = halves[Int(pixel[lane]) + 1] }
            let weight = Self.weights(depth: depth, confidence: color &>> 24)
            // A weight that underflowed to 0 (a depth of 1e20 m) adds nothing.
            let passes = reached .& (weight .> 0)
            guard any(passes) else { continue }
            let voxelRow = voxels.row(k * side + j)
            let oldWeight = voxelRow.loadUnaligned(
              fromByteOffset: BlockVoxels.weightOffset, as: SIMD8<Float>.self)
            let added = weight.replacing(with: 0, where: .!passes)
            let total = oldWeight + added
            let share = added / total.replacing(with: 1, where: .!passes)
            let keep = 1 - share
            let scaled = distance * inverseTruncation
            let tsdf = scaled.replacing(with: 1, where: scaled .> 1)
            let oldTSDF = voxelRow.loadUnaligned(as: SIMD8<Float>.self)
            voxelRow.storeBytes(
              of: (oldTSDF * keep + tsdf * share).replacing(with: oldTSDF, where: .!passes),
              as: SIMD8<Float>.self)
            voxelRow.storeBytes(
              of: total, toByteOffset: BlockVoxels.weightOffset, as: SIMD8<Float>.self)
            @inline(__always) func mix(
              _ offset: Int, _ new: SIMD8<UInt32>
            ) {
              let pointer = voxelRow + offset
              let old = Whole.floats(
                SIMD8<UInt32>(
                  truncatingIfNeeded: pointer.loadUnaligned(as: SIMD8<UInt16>.self)))
              // Lanes that do not pass keep their value exactly (keep 1, share 0).
              let mixed = Whole.truncated(old * keep + Whole.floats(new) * 256 * share)
              pointer.storeBytes(
                of: SIMD8<UInt16>(truncatingIfNeeded: Whole.bits(mixed)), as: SIMD8<UInt16>.self)
            }
            mix(BlockVoxels.redOffset, color & 0xFF)
            mix(BlockVoxels.greenOffset, (color &>> 8) & 0xFF)
            mix(BlockVoxels.blueOffset, (color &>> 16) & 0xFF)
          }
        }
      }
    }
  }

  /// `FusionFrame.weight(confidence:depth:)` of eight pixels.
  @inline(__always)
  static func weights(depth: SIMD8<Float>, confidence: SIMD8<UInt32>) -> SIMD8<Float> {
    let level = Whole.floats(confidence)
    let byConfidence = SIMD8<Float>(repeating: 1)
      .replacing(with: 0.5, where: level .== 1)
      .replacing(with: 0.2, where: level .== 0)
    return (byConfidence / (depth * depth)).replacing(with: byConfidence, where: depth .<= 1)
  }
}

/// Conversions between floats holding whole numbers and integers, eight lanes at once,
/// exact from 0 to 2²² (pixel indices, colours in 1/256 steps): adding 2²³ puts a whole
/// number in the low bits of the float's mantissa.
private enum Whole {
  static let shift = SIMD8<Float>(repeating: 8_388_608)

  /// `x` rounded toward zero, for 0 ≤ x < 2²².
  @inline(__always)
  static func truncated(_ x: SIMD8<Float>) -> SIMD8<Float> {
    let nearest = (x + shift) - shift
    return nearest - SIMD8(repeating: 1).replacing(with: 0, where: nearest .<= x)
  }

  /// The integers of whole numbers 0…2²².
  @inline(__always)
  static func bits(_ whole: SIMD8<Float>) -> SIMD8<UInt32> {
    unsafeBitCast(whole + shift, to: SIMD8<UInt32>.self) & 0x7F_FFFF
  }

  /// The floats of integers 0…2²².
  @inline(__always)
  static func floats(_ integers: SIMD8<UInt32>) -> SIMD8<Float> {
    unsafeBitCast(integers | 0x4B00_0000, to: SIMD8<Float>.self) - shift
  }
}
