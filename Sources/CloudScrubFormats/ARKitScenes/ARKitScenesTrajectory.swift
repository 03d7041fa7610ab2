import CloudScrubCore
import Foundation

/// ARKitScenes' text files: the `lowres_wide.traj` trajectory and the `.pincam`
/// intrinsics.
enum ARKitScenesText {
  /// One pose of the trajectory.
  struct Pose: Equatable {
    var timestampSeconds: Double
    /// Camera-to-world in OpenCV camera axes (the file holds the inverse).
    var worldFromCamera: Transform3D
  }

  /// Parses `lowres_wide.traj`: lines of `timestamp ax ay az tx ty tz`, the axis-angle
  /// rotation (radians) and translation of the WORLD-TO-CAMERA transform. Blank lines
  /// are skipped. Returns the poses sorted by time, each inverted to camera-to-world.
  ///
  /// - Throws: `CaptureFolderError.badLine` naming the first line that is not seven
  ///   finite numbers.
  static func trajectory(_ bytes: [UInt8], path: String) throws(CaptureFolderError) -> [Pose] {
    var poses: [Pose] = []
    let lines = String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    for (offset, line) in lines.enumerated() {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "," }
      )
      if fields.isEmpty { continue }
      let numbers = fields.compactMap { Double($0) }.filter(\.isFinite)
      // Finite but huge angles (1e300) have no finite sine: check the rotation too.
      let rotationIsFinite =
        numbers.count == 7
        && Transform3D(axisAngle: SIMD3(numbers[1], numbers[2], numbers[3])).isFinite
      guard fields.count == 7, numbers.count == 7, rotationIsFinite else {
        throw CaptureFolderError(
          .badLine(
            line: offset + 1,
            expected: "a timestamp, an axis-angle rotation and a translation (7 numbers)"),
          path: path)
      }
      let cameraFromWorld = Transform3D(
        axisAngle: SIMD3(numbers[1], numbers[2], numbers[3]),
        translation: SIMD3(numbers[4], numbers[5], numbers[6]))
      poses.append(
        Pose(timestampSeconds: numbers[0], worldFromCamera: cameraFromWorld.rigidInverse))
    }
    return poses.sorted { $0.timestampSeconds < $1.timestampSeconds }
  }

  /// Parses a `.pincam` file: `w h fx fy cx cy` on one line.
  ///
  /// - Throws: `CaptureFolderError.badLine` when it is not six numbers with a positive
  ///   whole size and positive focal lengths.
  static func intrinsics(_ bytes: [UInt8], path: String) throws(CaptureFolderError)
    -> CameraIntrinsics
  {
    let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    let n = fields.compactMap { Double($0) }.filter(\.isFinite)
    guard fields.count == 6, n.count == 6, n[0] >= 1, n[1] >= 1, n[0] == n[0].rounded(),
      n[1] == n[1].rounded(), n[0] <= 32_768, n[1] <= 32_768, n[2] > 0, n[3] > 0
    else {
      throw CaptureFolderError(.badLine(line: 1, expected: "w h fx fy cx cy"), path: path)
    }
    return CameraIntrinsics(
      fx: n[2], fy: n[3], cx: n[4], cy: n[5], width: Int(n[0]), height: Int(n[1]))
  }

  /// The axis-angle vector (axis × angle in radians) of a rotation matrix, for writing
  /// trajectories.
  static func axisAngle(of transform: Transform3D) -> SIMD3<Double> {
    let m = { (r: Int, c: Int) in transform[r, c] }
    // Quaternion from the matrix by the largest of four pivots (stable at any angle).
    let trace = m(0, 0) + m(1, 1) + m(2, 2)
    var q: SIMD4<Double>  // x, y, z, w
    if trace > 0 {
      let s = (trace + 1).squareRoot() * 2
      q = SIMD4((m(2, 1) - m(1, 2)) / s, (m(0, 2) - m(2, 0)) / s, (m(1, 0) - m(0, 1)) / s, s / 4)
    } else if m(0, 0) > m(1, 1) && m(0, 0) > m(2, 2) {
      let s = (1 + m(0, 0) - m(1, 1) - m(2, 2)).squareRoot() * 2
      q = SIMD4(s / 4, (m(0, 1) + m(1, 0)) / s, (m(0, 2) + m(2, 0)) / s, (m(2, 1) - m(1, 2)) / s)
    } else if m(1, 1) > m(2, 2) {
      let s = (1 + m(1, 1) - m(0, 0) - m(2, 2)).squareRoot() * 2
      q = SIMD4((m(0, 1) + m(1, 0)) / s, s / 4, (m(1, 2) + m(2, 1)) / s, (m(0, 2) - m(2, 0)) / s)
    } else {
      let s = (1 + m(2, 2) - m(0, 0) - m(1, 1)).squareRoot() * 2
      q = SIMD4((m(0, 2) + m(2, 0)) / s, (m(1, 2) + m(2, 1)) / s, s / 4, (m(1, 0) - m(0, 1)) / s)
    }
    if q.w < 0 { q = -q }
    let v = SIMD3(q.x, q.y, q.z)
    let sine = (v * v).sum().squareRoot()
    guard sine > 0 else { return .zero }
    return v / sine * (2 * atan2(sine, q.w))
  }
}
