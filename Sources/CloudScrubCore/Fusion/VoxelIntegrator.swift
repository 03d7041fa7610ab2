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
    let (fx, fy, cx, cy) = (frame.fx, frame.fy, frame.cx, frame.cy)
    let inverseStride = 1 / Float(frame.stride)
    let width = frame.width
    let height = Float(frame.height)
    let widthLimit = Float(width)
    frame.depths.withUnsafeBufferPointer { depths in
      frame.weights.withUnsafeBufferPointer { weights in
        frame.colors.withUnsafeBufferPointer { colors in
          var index = 0
          for k in 0..<side {
            for j in 0..<side {
              var q = base + stepZ * Float(k) + stepY * Float(j)
              for _ in 0..<side {
                defer {
                  q += stepX
                  index += 1
                }
                guard q.z > 0.001 else { continue }
                let inverseZ = 1 / q.z
                let column = ((fx * q.x * inverseZ + cx - 0.5) * inverseStride).rounded()
                let row = ((fy * q.y * inverseZ + cy - 0.5) * inverseStride).rounded()
                guard column >= 0, row >= 0, column < widthLimit, row < height else { continue }
                let pixel = Int(row) * width + Int(column)
                let depth = depths[pixel]
                guard depth > 0 else { continue }
                let distance = depth - q.z
                guard distance >= -truncation else { continue }
                let tsdf = min(1, distance * inverseTruncation)
                let w = weights[pixel]
                let voxel = voxels + index
                let old = voxel.pointee.weight
                let total = old + w
                voxel.pointee.tsdf = (voxel.pointee.tsdf * old + tsdf * w) / total
                voxel.pointee.weight = total
                let color = colors[pixel]
                @inline(__always) func mix(_ value: UInt16, _ new: UInt8) -> UInt16 {
                  UInt16((Float(value) * old + Float(new) * 256 * w) / total)
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
