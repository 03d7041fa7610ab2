import CloudScrubCore
import CloudScrubRender

/// What the scene draws for the selection: a small cross on the picked point, and the
/// measured distance as a line between its two ends.
enum MeasureTool {
  static let lineColor: (UInt8, UInt8, UInt8, UInt8) = (255, 215, 70, 255)
  static let markColor: (UInt8, UInt8, UInt8, UInt8) = (255, 255, 255, 255)

  /// Overlay segments for `selection` (none when nothing is picked), the crosses a
  /// hundredth of `scene`'s size.
  static func lines(_ selection: PointSelection, scene: ViewerScene) -> [LineVertex] {
    var markMeters: Float = 0.01
    if let b = scene.bounds {
      markMeters = max(0.002, 0.01 * max(b.max.x - b.min.x, b.max.y - b.min.y, b.max.z - b.min.z))
    }
    var vertices: [LineVertex] = []
    let ends = [selection.measureStart, selection.measureEnd].compactMap { $0 }
    if ends.count == 2 {
      vertices.append(LineVertex(Self.vector(ends[0].positionMeters), lineColor))
      vertices.append(LineVertex(Self.vector(ends[1].positionMeters), lineColor))
    }
    for end in ends {
      vertices += cross(at: end.positionMeters, sizeMeters: markMeters, lineColor)
    }
    if let picked = selection.picked, !ends.contains(picked) {
      vertices += cross(at: picked.positionMeters, sizeMeters: markMeters, markColor)
    }
    return vertices
  }

  /// Three axis-aligned segments through `point`, `sizeMeters` long each way.
  static func cross(
    at point: Point3, sizeMeters: Float, _ color: (UInt8, UInt8, UInt8, UInt8)
  ) -> [LineVertex] {
    let p = vector(point)
    var vertices: [LineVertex] = []
    for axis in [SIMD3<Float>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)] {
      vertices.append(LineVertex(p - axis * sizeMeters, color))
      vertices.append(LineVertex(p + axis * sizeMeters, color))
    }
    return vertices
  }

  static func vector(_ p: Point3) -> SIMD3<Float> { SIMD3(p.x, p.y, p.z) }
}
