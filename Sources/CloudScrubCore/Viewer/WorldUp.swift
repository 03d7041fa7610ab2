import Foundation

/// Which world axis points up: for orbiting, the ground grid, height colouring, the
/// first view and the height band. Each recording says which (`RecordingDescription`).
public enum WorldUp: String, Equatable, Sendable, CaseIterable {
  /// +y up: ARKit worlds (Record3D, Polycam, Stray Scanner poses).
  case y
  /// +z up: surveying and robotics worlds.
  case z

  /// A position's height along this axis.
  public func height(of point: Point3) -> Float {
    switch self {
    case .y: point.y
    case .z: point.z
    }
  }

  /// The up direction as a unit vector.
  public var vector: SIMD3<Float> {
    switch self {
    case .y: SIMD3(0, 1, 0)
    case .z: SIMD3(0, 0, 1)
    }
  }

  /// The unit direction from the pivot to the eye for an azimuth and elevation.
  ///
  /// Azimuth 0, elevation 0 looks at the pivot from the front with world +x to the
  /// right: from +z for `.y` worlds, from −y for `.z` worlds. Positive azimuth moves the
  /// eye towards +x, positive elevation lifts it.
  func offsetDirection(azimuthRadians az: Float, elevationRadians el: Float) -> SIMD3<Float> {
    let horizontal = cos(el)
    switch self {
    case .y: return SIMD3(horizontal * sin(az), sin(el), horizontal * cos(az))
    case .z: return SIMD3(horizontal * sin(az), -horizontal * cos(az), sin(el))
    }
  }

  /// The azimuth and elevation of a unit direction from the pivot to the eye (the
  /// inverse of `offsetDirection`).
  func angles(ofOffset d: SIMD3<Float>) -> (azimuthRadians: Float, elevationRadians: Float) {
    switch self {
    case .y: return (atan2(d.x, d.z), asin(max(-1, min(1, d.y))))
    case .z: return (atan2(d.x, -d.y), asin(max(-1, min(1, d.z))))
    }
  }
}
