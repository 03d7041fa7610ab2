import Foundation

/// Where a recording's poses jump: ARKit relocalising moves a camera by centimetres
/// from one frame to the next, which no hand-held motion does.
///
/// A frame's step is its camera's move from the frame before (position difference,
/// and the rotation vector of R₍f−1₎ᵀ R_f). Smooth motion changes its step smoothly,
/// so a step differs from the mean of the steps either side of it (each scaled to its
/// time) by a third difference of the motion: well under a millimetre at 30–60 fps. A
/// frame whose step differs by more than `jumpMeters` or `jumpRadians`, and by more
/// than its neighbours' do, jumped: its pose disagrees with both neighbours. A jump
/// that stays (every later pose moved) flags its own frame; a single wrong frame flags
/// itself and the next one (the step back). The first two tracked frames and the last
/// are not judged.
public enum PoseJumps {
  public static let jumpMeters = 0.005
  public static let jumpRadians = 1.0 * Double.pi / 180

  /// The frames from `start` on whose poses (`poses`, one a frame) jumped.
  public static func detect(_ poses: [Transform3D], times: [Double], from start: Int) -> [Int] {
    guard poses.count >= start + 3 else { return [] }
    func step(_ f: Int) -> (move: SIMD3<Double>, turn: SIMD3<Double>, seconds: Double) {
      (
        poses[f].translation - poses[f - 1].translation,
        (poses[f - 1].rigidInverse * poses[f]).rotationVector,
        max(times[f] - times[f - 1], 1e-3)
      )
    }
    // Each judged frame's deviation from the mean of its neighbours' steps (as rates).
    let judged = Array((start + 2)..<(poses.count - 1))
    let deviations = judged.map { f -> Double in
      let (previous, here, next) = (step(f - 1), step(f), step(f + 1))
      let moveRate = (previous.move / previous.seconds + next.move / next.seconds) / 2
      let turnRate = (previous.turn / previous.seconds + next.turn / next.seconds) / 2
      let moved = here.move - moveRate * here.seconds
      let turned = here.turn - turnRate * here.seconds
      return max(
        (moved * moved).sum().squareRoot() / jumpMeters,
        (turned * turned).sum().squareRoot() / jumpRadians)
    }
    // A jump also moves its neighbours' deviations by half as much: only the largest
    // of three counts.
    var jumps: [Int] = []
    for (k, f) in judged.enumerated() where deviations[k] > 1 {
      let left = k > 0 ? deviations[k - 1] : 0
      let right = k + 1 < deviations.count ? deviations[k + 1] : 0
      if deviations[k] >= left && deviations[k] >= right { jumps.append(f) }
    }
    return jumps
  }
}
