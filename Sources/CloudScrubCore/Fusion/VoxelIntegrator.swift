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

  /// Fuses the frame into the block at block coordinate `block`.
  func update(_ voxels: UnsafeMutablePointer<TSDFVoxel>, coordinate block: SIMD3<Int32>) {
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
    let width = frame.width
    let widthLimit = Float(frame.width)
    let heightLimit = Float(frame.height)
    let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
    // A row of eight voxels along x at once: their camera coordinates and pixels.
    let rowX = lanes * stepX.x
    let rowY = lanes * stepX.y
    let rowZ = lanes * stepX.z
    frame.depths.withUnsafeBufferPointer { depths in
      frame.weights.withUnsafeBufferPointer { weights in
        frame.colors.withUnsafeBufferPointer { colors in
          for k in 0..<side {
            for j in 0..<side {
              let start = base + stepZ * Float(k) + stepY * Float(j)
              let qz = rowZ + start.z
              let inFront = qz .> 0.001
              guard any(inFront) else { continue }
              let inverseZ = 1 / qz
              let qx = rowX + start.x
              let qy = rowY + start.y
              let column = fx * qx * inverseZ + cx
              let row = fy * qy * inverseZ + cy
              let inside =
                inFront .& (column .>= 0) .& (row .>= 0) .& (column .< widthLimit)
                .& (row .< heightLimit)
              guard any(inside) else { continue }
              let rowBase = (k * side + j) * side
              for lane in 0..<side where inside[lane] {
                let pixel = Int(row[lane]) * width + Int(column[lane])
                let depth = depths[pixel]
                guard depth > 0 else { continue }
                let distance = depth - qz[lane]
                guard distance >= -truncation else { continue }
                let tsdf = min(1, distance * inverseTruncation)
                let w = weights[pixel]
                // A weight that underflowed to 0 (a depth of 1e20 m) adds nothing.
                guard w > 0 else { continue }
                let voxel = voxels + (rowBase + lane)
                let old = voxel.pointee.weight
                let total = old + w
                let share = w / total
                let keep = 1 - share
                voxel.pointee.tsdf = voxel.pointee.tsdf * keep + tsdf * share
                voxel.pointee.weight = total
                let color = colors[pixel]
                @inline(__always) func mix(_ value: UInt16, _ new: UInt8) -> UInt16 {
                  UInt16(Float(value) * keep + Float(new) * 256 * share)
                }
                voxel.pointee.red = mix(voxel.pointee.red, color.r)
                voxel.pointee.green = mix(voxel.pointee.green, color.g)
                voxel.pointee.blue = mix(voxel.pointee.blue, color.b)
              }
            }
          }
        }
      }
    }
  }
}
