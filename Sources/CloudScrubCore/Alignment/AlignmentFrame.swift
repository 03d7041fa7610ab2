import Foundation

/// Why a frame could not be prepared for alignment.
public enum AlignmentError: Error, Equatable, CustomStringConvertible, Sendable {
  case incompleteDepth(frame: Int)
  case invalidIntrinsics(frame: Int)
  case nonFinitePose(frame: Int)

  public var description: String {
    switch self {
    case .incompleteDepth(let frame): "frame \(frame): depth map shorter than its size"
    case .invalidIntrinsics(let frame): "frame \(frame): intrinsics unusable (zero or not finite)"
    case .nonFinitePose(let frame): "frame \(frame): pose not finite"
    }
  }
}

/// One frame as the alignment pass uses it: a subsample of its depth pixels as points
/// with normals, in OpenCV camera axes, and the pose that puts them in the world.
///
/// Points come from a regular grid of depth pixels (`AlignmentOptions.stride`); a
/// pixel is used when it and its four neighbours half a stride away have depths within
/// 5 % of each other (which drops depth edges and flying pixels), inside the depth range
/// and confidence. Its normal is the cross product of the neighbours' differences,
/// facing the camera; pixels seen within 9° of edge-on are dropped.
public struct AlignmentFrame: Sendable {
  public var timestampSeconds: Double
  /// Points in OpenCV camera axes (x right, y down, z forward), metres.
  public var pointsInCamera: [SIMD3<Float>]
  /// Unit normals in the same axes, one a point.
  public var normalsInCamera: [SIMD3<Float>]
  /// The pose the recording gives, for OpenCV camera axes.
  public var worldFromCamera: Transform3D
  /// The distance between neighbouring subsampled points at the frame's median depth
  /// (stride / fx × depth); 0 for a frame without points.
  public var pointSpacingMeters: Float = 0
  /// Whether the recorded pose jumped at this frame (`PoseJumps`): refinement then
  /// registers it without the motion prior.
  public var poseJumped = false

  /// About how much memory the subsample takes.
  var byteCount: Int {
    MemoryLayout<Self>.stride + (pointsInCamera.capacity + normalsInCamera.capacity)
      * MemoryLayout<SIMD3<Float>>.stride
  }

  /// The same frame in arrays without the room reserved for a whole grid of pixels,
  /// to be held for long.
  func compacted() -> AlignmentFrame {
    var frame = self
    frame.pointsInCamera = Array(pointsInCamera[...])
    frame.normalsInCamera = Array(normalsInCamera[...])
    return frame
  }

  public init(
    timestampSeconds: Double, pointsInCamera: [SIMD3<Float>], normalsInCamera: [SIMD3<Float>],
    worldFromCamera: Transform3D
  ) {
    self.timestampSeconds = timestampSeconds
    self.pointsInCamera = pointsInCamera
    self.normalsInCamera = normalsInCamera
    self.worldFromCamera = worldFromCamera
  }

  /// The subsample of `frame` (the recording's frame `index`, for errors).
  ///
  /// - Throws: `AlignmentError` for a depth map shorter than its size, unusable
  ///   intrinsics or a pose that is not finite.
  public init(_ frame: CapturedFrame, index: Int, options: AlignmentOptions) throws {
    let depth = frame.depth
    guard depth.isComplete else { throw AlignmentError.incompleteDepth(frame: index) }
    let k = frame.intrinsics
    guard k.width > 0, k.height > 0, k.nonFiniteValue == nil, k.fx != 0, k.fy != 0 else {
      throw AlignmentError.invalidIntrinsics(frame: index)
    }
    guard frame.pose.worldFromCamera.isFinite else {
      throw AlignmentError.nonFinitePose(frame: index)
    }
    let width = depth.width
    let height = depth.height
    let intrinsics = k.scaled(toWidth: width, height: height)
    let stride = options.stride(width: width, height: height)
    let half = max(1, stride / 2)
    let grid = depth.metersGrid()
    let minConfidence = options.minConfidence.rawValue
    let confidence = frame.confidence.flatMap { map in
      map.width == width && map.height == height && map.isComplete ? map : nil
    }
    let range = options.depthRangeMeters
    let fx = Float(intrinsics.fx)
    let fy = Float(intrinsics.fy)
    let cx = Float(intrinsics.cx)
    let cy = Float(intrinsics.cy)
    func point(_ u: Int, _ v: Int, _ d: Float) -> SIMD3<Float> {
      SIMD3((Float(u) + 0.5 - cx) / fx * d, (Float(v) + 0.5 - cy) / fy * d, d)
    }
    var points: [SIMD3<Float>] = []
    var normals: [SIMD3<Float>] = []
    points.reserveCapacity((width / stride + 1) * (height / stride + 1))
    normals.reserveCapacity(points.capacity)
    grid.withUnsafeBufferPointer { depths in
      for v in Swift.stride(from: half, to: height - half, by: stride) {
        for u in Swift.stride(from: half, to: width - half, by: stride) {
          let d = depths[v * width + u]
          guard d > 0, range.contains(d) else { continue }
          if let confidence, confidence.values[v * confidence.bytesPerRow + u] < minConfidence {
            continue
          }
          let left = depths[v * width + u - half]
          let right = depths[v * width + u + half]
          let up = depths[(v - half) * width + u]
          let down = depths[(v + half) * width + u]
          let limit = 0.05 * d
          guard abs(left - d) < limit, abs(right - d) < limit, abs(up - d) < limit,
            abs(down - d) < limit
          else { continue }
          let p = point(u, v, d)
          let across = point(u + half, v, right) - point(u - half, v, left)
          let along = point(u, v + half, down) - point(u, v - half, up)
          var n = SIMD3(
            across.y * along.z - across.z * along.y, across.z * along.x - across.x * along.z,
            across.x * along.y - across.y * along.x)
          let length = (n * n).sum().squareRoot()
          guard length > 0 else { continue }
          n /= length
          let ray = p / (p * p).sum().squareRoot()
          var facing = (n * ray).sum()
          if facing > 0 {
            n = -n
            facing = -facing
          }
          guard facing < -0.15 else { continue }
          points.append(p)
          normals.append(n)
        }
      }
    }
    timestampSeconds = frame.timestampSeconds
    pointsInCamera = points
    normalsInCamera = normals
    worldFromCamera = frame.pose.worldFromOpenCVCamera
    if !points.isEmpty {
      let depths = points.map(\.z).sorted()
      pointSpacingMeters = depths[depths.count / 2] * Float(stride) / fx
    }
  }
}
