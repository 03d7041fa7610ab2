import Foundation

/// How doubled a capture's surfaces are under a set of poses: the measure the capture's
/// drift is judged by, which takes no pose as truth.
///
/// Frames far apart in time that see the same surface should put it in the same place;
/// where tracking drifted, they show it twice (a doubled wall). The far figure is the
/// median point-to-plane distance between the points of such frames; the near figure
/// is the same between frames a few apart, whose poses cannot have drifted apart, so it
/// is the depth's own noise: the floor the far figure can reach.
public struct Ghosting: Equatable, Sendable {
  /// The median distance between frames at least `GhostingSample.farGap` apart, metres;
  /// nil when no such pair sees the same surface.
  public var farMedianMeters: Float?
  /// The same between frames `GhostingSample.nearGap` apart: the noise floor.
  public var nearMedianMeters: Float?
  public var farPairs: Int
  public var nearPairs: Int

  /// The far figure over the near one: 1 when no doubling shows above the noise.
  public var ratio: Double? {
    guard let far = farMedianMeters, let near = nearMedianMeters, near > 0 else { return nil }
    return Double(far / near)
  }
}

/// Two frames of a recording, by index, whose surfaces `Ghosting` compares.
public struct FramePair: Equatable, Hashable, Sendable {
  public var first: Int
  public var second: Int

  public init(_ first: Int, _ second: Int) {
    self.first = first
    self.second = second
  }
}

/// The frames and pairs `Ghosting` is measured on, chosen once so that several sets of
/// poses (recorded, refined) are judged on the same pairs.
///
/// Anchors are spread evenly over the tracked frames (at most `maximumAnchors`). Each
/// anchor is paired with the frame `nearGap` after it (near) and with the anchor at least
/// `farGap` after it (120 frames: 2 s at 60 fps) whose view overlaps its own the most
/// (far), when at least
/// `minimumOverlap` of that frame's points lie in the anchor's view under the reference
/// poses. A pair's distances are each frame's subsampled points (`AlignmentFrame`)
/// against planes fitted to the other's points in voxels of twice the alignment model's
/// size (`AlignmentOptions.voxelSize`), both ways, up to `limitMeters` (farther points lie
/// on surfaces the other frame does not see).
public struct GhostingSample: Sendable {
  public static let defaultFarGap = 120
  public static let defaultNearGap = 6
  public static let maximumAnchors = 240
  public static let minimumOverlap = 0.3
  public static let limitMeters: Float = 0.05

  public let frames: [Int: AlignmentFrame]
  public let far: [FramePair]
  public let near: [FramePair]
  public let voxelSizeMeters: Float
  public var farGap = defaultFarGap
  public var nearGap = defaultNearGap

  /// Reads the sample of `source`, choosing far pairs by their view overlap under
  /// `referencePoses` (world from OpenCV camera, one a frame; nil: the recorded poses).
  ///
  /// - Throws: `FrameLoadError` for a frame that cannot be read or prepared.
  public static func read(
    _ source: any RecordingSource, referencePoses: [Transform3D]? = nil,
    options: AlignmentOptions = AlignmentOptions(), farGap: Int = defaultFarGap,
    nearGap: Int = defaultNearGap
  ) throws -> GhostingSample {
    let count = source.frameCount
    var positions: [SIMD3<Double>] = []
    for index in 0..<count {
      do {
        positions.append(try source.frameInfo(at: index).pose.position)
      } catch {
        throw FrameLoadError(frameIndex: index, underlying: error)
      }
    }
    let start = TrackingStart.untrackedFrameCount(translations: positions)
    let tracked = max(0, count - start)
    let step = max(1, (tracked + maximumAnchors - 1) / maximumAnchors)
    let anchors = Array(Swift.stride(from: start, to: count, by: step))
    let wanted = Set(anchors + anchors.map { $0 + nearGap }.filter { $0 < count }).sorted()
    let read = try DriftAlignment.prepare(source, wanted, options: options)
    let frames = Dictionary(uniqueKeysWithValues: zip(wanted, read))
    let poses = Dictionary(
      uniqueKeysWithValues: zip(wanted, read).map { index, frame in
        (index, referencePoses?[index] ?? frame.worldFromCamera)
      })
    let views = frames.mapValues(FrameView.init)
    func overlap(_ a: Int, _ b: Int) -> Double {
      guard let view = views[a], let pa = poses[a], let pb = poses[b], let frame = frames[b]
      else { return 0 }
      return view.overlap(frame, FloatRigid(pa.rigidInverse * pb))
    }
    var far: [FramePair] = []
    var near: [FramePair] = []
    for a in anchors {
      if a + nearGap < count, overlap(a, a + nearGap) >= minimumOverlap {
        near.append(FramePair(a, a + nearGap))
      }
      var best: (pair: FramePair, overlap: Double)?
      for b in anchors where b - a >= farGap {
        let shared = overlap(a, b)
        if shared >= minimumOverlap, shared > best?.overlap ?? 0 {
          best = (FramePair(a, b), shared)
        }
      }
      if let best { far.append(best.pair) }
    }
    let first = anchors.lazy.compactMap { frames[$0] }.first { !$0.pointsInCamera.isEmpty }
    let voxel = 2 * (first.map { options.voxelSize(for: $0) } ?? 0.02)
    return GhostingSample(
      frames: frames, far: far, near: near, voxelSizeMeters: voxel, farGap: farGap,
      nearGap: nearGap)
  }

  /// The ghosting under `poses` (world from OpenCV camera, one a frame of the recording).
  public func measure(_ poses: [Transform3D]) -> Ghosting {
    Ghosting(
      farMedianMeters: median(far, poses), nearMedianMeters: median(near, poses),
      farPairs: far.count, nearPairs: near.count)
  }

  /// `measure` of poses in the recording's camera axes.
  public func measure(_ poses: [CameraPose]) -> Ghosting {
    measure(poses.map(\.worldFromOpenCVCamera))
  }

  /// The far median with each far pair registered on its own: the earlier frame moved
  /// onto the later one under `poses` by point-to-plane ICP, the pair then measured as
  /// `measure` does. No one set of rigid poses can bring every pair closer than its own
  /// best, so this is about the lowest far figure any poses reach: what is left of it
  /// above the noise floor is not drift. `pairs` (`near`, say) measures other pairs
  /// the same way: what their depths differ by once no pose error is left.
  public func pairwiseFloor(
    _ poses: [Transform3D], options: AlignmentOptions, pairs: [FramePair]? = nil
  ) -> Float? {
    pooledMedian(pairs ?? far) { pair, a, b in
      var model = SurfelVoxelMap(voxelSizeMeters: voxelSizeMeters / 2)
      let transform = FloatRigid(poses[pair.second])
      model.add(
        points: b.pointsInCamera.map(transform.apply),
        normals: b.normalsInCamera.map(transform.rotate), weight: 1)
      let registered =
        LoopRegistration.coarseToFine(
          a, to: &model, from: poses[pair.first], options: options, fineIterations: 30)
        ?? poses[pair.first]
      return FramePairResidual.distances(
        a, registered, b, poses[pair.second], voxelSizeMeters: voxelSizeMeters,
        limitMeters: Self.limitMeters)
    }
  }

  /// `pairwiseFloor` of poses in the recording's camera axes.
  public func pairwiseFloor(_ poses: [CameraPose], options: AlignmentOptions) -> Float? {
    pairwiseFloor(poses.map(\.worldFromOpenCVCamera), options: options)
  }

  private func median(_ pairs: [FramePair], _ poses: [Transform3D]) -> Float? {
    pooledMedian(pairs) { pair, a, b in
      FramePairResidual.distances(
        a, poses[pair.first], b, poses[pair.second], voxelSizeMeters: voxelSizeMeters,
        limitMeters: Self.limitMeters)
    }
  }

  /// The median of the distances `distances` gives for each pair whose frames were read,
  /// all pairs' pooled, a pair at a time on every core.
  private func pooledMedian(
    _ pairs: [FramePair],
    _ distances: @Sendable (FramePair, AlignmentFrame, AlignmentFrame) -> [Float]
  ) -> Float? {
    let slots = ParallelSlots<[Float]>(count: pairs.count, initial: [])
    Parallel.perform(iterations: pairs.count) { index in
      let pair = pairs[index]
      guard let a = frames[pair.first], let b = frames[pair.second] else { return }
      let found = distances(pair, a, b)
      slots.modify(index) { $0 = found }
    }
    var all = (0..<pairs.count).flatMap { slots[$0] }
    guard !all.isEmpty else { return nil }
    all.sort()
    return all[all.count / 2]
  }
}

/// What a frame sees: the bounds of its points' image directions and depths.
struct FrameView {
  var low: SIMD2<Float>
  var high: SIMD2<Float>
  var depths: ClosedRange<Float>

  init(_ frame: AlignmentFrame) {
    low = SIMD2(repeating: .infinity)
    high = SIMD2(repeating: -.infinity)
    var near = Float.infinity
    var far: Float = 0
    for p in frame.pointsInCamera {
      let direction = SIMD2(p.x / p.z, p.y / p.z)
      low = pointwiseMin(low, direction)
      high = pointwiseMax(high, direction)
      near = min(near, p.z)
      far = max(far, p.z)
    }
    depths = near <= far ? (0.8 * near)...(1.2 * far) : 0...0
  }

  /// The fraction of `frame`'s points (every eighth) that `cameraFromOther` puts in
  /// this view.
  func overlap(_ frame: AlignmentFrame, _ cameraFromOther: FloatRigid) -> Double {
    var inside = 0
    var total = 0
    for p in Swift.stride(from: 0, to: frame.pointsInCamera.count, by: 8).lazy.map({
      cameraFromOther.apply(frame.pointsInCamera[$0])
    }) {
      total += 1
      guard depths.contains(p.z) else { continue }
      let direction = SIMD2(p.x / p.z, p.y / p.z)
      if all(direction .>= low), all(direction .<= high) { inside += 1 }
    }
    return total > 0 ? Double(inside) / Double(total) : 0
  }
}
