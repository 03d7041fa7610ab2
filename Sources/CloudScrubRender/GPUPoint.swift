import CloudScrubCore

/// One point as the GPU stores it: 16 bytes, the same as the CPU store's point.
///
/// Position as three floats, then red, green, blue and confidence as bytes. The frame
/// a point belongs to is not stored: the shader finds it from the frame table, and
/// frame windows are draw ranges.
public struct GPUPoint: Equatable, Sendable {
  public var x: Float
  public var y: Float
  public var z: Float
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public var confidence: UInt8

  public init(x: Float, y: Float, z: Float, r: UInt8, g: UInt8, b: UInt8, confidence: UInt8) {
    self.x = x
    self.y = y
    self.z = z
    self.r = r
    self.g = g
    self.b = b
    self.confidence = confidence
  }

  /// The size of one vertex in bytes: what each loaded point costs in uploads.
  public static let byteCount = MemoryLayout<GPUPoint>.stride
  /// The grey the intensity mode gives points without intensity, as with points
  /// without a confidence map in the confidence mode.
  public static let noIntensityGray: Float = 0.75
}

extension PointStore {
  /// Interleaves points `range` of the store into `destination`, which holds at least
  /// `range.count` points.
  public func interleave(
    _ range: Range<Int>, into destination: UnsafeMutableBufferPointer<GPUPoint>
  ) {
    precondition(range.count <= destination.count && range.upperBound <= count)
    positions.withUnsafeBufferPointer { positions in
      colors.withUnsafeBufferPointer { colors in
        confidence.withUnsafeBufferPointer { confidence in
          for (slot, index) in range.enumerated() {
            let p = positions[index]
            let c = colors[index]
            destination[slot] = GPUPoint(
              x: p.x, y: p.y, z: p.z, r: c.r, g: c.g, b: c.b, confidence: confidence[index])
          }
        }
      }
    }
  }
}
