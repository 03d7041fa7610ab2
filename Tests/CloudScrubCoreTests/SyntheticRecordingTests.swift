import Foundation
import Testing

@testable import CloudScrubCore

@Suite struct SyntheticRecordingTests {
  let scene = SyntheticScene.standard
  let source = SyntheticRecordingSource()

  /// Frames of the default recording that several tests look at, each rendered once
  /// (a frame takes about a second in a debug build).
  enum Rendered {
    static let first = try? SyntheticRecordingSource().frame(at: 0)
    static let middle = try? SyntheticRecordingSource().frame(at: 29)
    static let last = try? SyntheticRecordingSource().frame(at: 59)
  }

  func defaultFrame(_ index: Int) throws -> CapturedFrame {
    switch index {
    case 0: try #require(Rendered.first)
    case 29: try #require(Rendered.middle)
    case 59: try #require(Rendered.last)
    default: try source.frame(at: index)
    }
  }

  // MARK: - The scene

  @Test func raysAtKnownSurfacesHitAtTheAnalyticDistance() throws {
    let down = try #require(
      scene.intersect(rayOrigin: SIMD3(0.5, 1.4, 1), direction: SIMD3(0, -2, 0)))
    #expect(down.surface == .floor)
    #expect(abs(down.distance - 1.4) < 1e-12)
    #expect(down.point == SIMD3(0.5, 0, 1))
    #expect(down.normal == SIMD3(0, 1, 0))

    let back = try #require(
      scene.intersect(rayOrigin: SIMD3(1.5, 2, 0), direction: SIMD3(0, 0, -1)))
    #expect(back.surface == .backWall)
    #expect(abs(back.distance - 2) < 1e-12)
    #expect(back.normal == SIMD3(0, 0, 1))

    let onBox = try #require(
      scene.intersect(rayOrigin: SIMD3(-0.9, 2, -0.8), direction: SIMD3(0, -1, 0)))
    #expect(onBox.surface == .boxTop)
    #expect(abs(onBox.distance - 1.3) < 1e-12)

    // Along z at x = 0, y = 1: 0.5 m from the sphere's centre line, it enters the
    // sphere at z = −0.5 + √(0.6² − 0.5²).
    let sphere = try #require(
      scene.intersect(rayOrigin: SIMD3(0, 1, 0), direction: SIMD3(0, 0, -1)))
    #expect(sphere.surface == .sphere)
    #expect(abs(sphere.distance - (0.5 - (0.36 - 0.25).squareRoot())) < 1e-12)
    let radial = (sphere.point - SIMD3(0.3, 0.6, -0.5)) / 0.6
    #expect(((sphere.normal - radial) * (sphere.normal - radial)).sum() < 1e-20)

    let diagonal = try #require(
      scene.intersect(rayOrigin: SIMD3(1, 1, 1), direction: SIMD3(1, 0, -1)))
    #expect(diagonal.surface == .rightWall)
    #expect(abs(diagonal.distance - 2.squareRoot()) < 1e-12)
  }

  @Test func raysThroughTheOpenFrontOrTopHitNothing() {
    #expect(scene.intersect(rayOrigin: SIMD3(0, 1, 0), direction: SIMD3(0, 0, 1)) == nil)
    #expect(scene.intersect(rayOrigin: SIMD3(0, 1, 0), direction: SIMD3(0, 1, 0)) == nil)
    #expect(scene.intersect(rayOrigin: SIMD3(0, 1, 0), direction: .zero) == nil)
  }

  @Test func surfaceMembershipAndDistanceMatchTheGeometry() {
    #expect(scene.surface(containing: SIMD3(1, 0, 1)) == .floor)
    #expect(scene.surface(containing: SIMD3(1, 0.00005, 1)) == .floor)
    #expect(scene.surface(containing: SIMD3(1, 0.001, 1)) == nil)
    #expect(scene.surface(containing: SIMD3(-2, 1, 0)) == .leftWall)
    #expect(scene.surface(containing: SIMD3(-0.9, 0.35, -0.4)) == .boxFront)
    #expect(scene.surface(containing: SIMD3(0.3, 1.2, -0.5)) == .sphere)
    // 0.5 m from the right wall; the floor is 1.2 m away, the sphere 1.41 m.
    #expect(abs(scene.distanceToNearestSurface(SIMD3(1.5, 1.2, 1)) - 0.5) < 1e-12)
    // Beyond the open front, the floor's edge is the nearest surface.
    #expect(abs(scene.distanceToNearestSurface(SIMD3(0, 0, 3)) - 1) < 1e-12)
  }

  @Test func everyTextureCellHasAColourOfItsOwn() {
    var owners: [RGB8: String] = [:]
    var clashes: [String] = []
    let cells: [(SyntheticScene.Surface, Int, Int)] = [
      (.floor, 16, 16), (.backWall, 8, 10), (.leftWall, 8, 10), (.rightWall, 8, 10),
      (.boxTop, 8, 8), (.boxFront, 8, 7), (.boxBack, 8, 7), (.boxLeft, 8, 7), (.boxRight, 8, 7),
      (.sphere, 12, 8),
    ]
    for (surface, columns, rows) in cells {
      for i in 0..<columns {
        for j in 0..<rows {
          let color = SyntheticScene.cellColor(i: i, j: j, style: surface.index)
          let name = "\(surface) \(i),\(j)"
          if let owner = owners[color] { clashes.append("\(owner) and \(name)") }
          owners[color] = name
        }
      }
    }
    #expect(clashes.isEmpty)
    // Cells are where the documentation says: the floor's 0.25 m squares from x = z = −2.
    #expect(scene.color(at: SIMD3(-1.9, 0, -1.9), on: .floor) == RGB8(40, 40, 248))
    #expect(scene.color(at: SIMD3(-1.6, 0, -1.9), on: .floor) == RGB8(53, 40, 20))
    #expect(scene.color(at: SIMD3(-1.9, 0, -1.6), on: .floor) == RGB8(40, 53, 20))
  }

  // MARK: - Geometry of the frames

  @Test func centralDepthPixelOfFirstFrameIsTheForwardDistanceToTheBoxFront() throws {
    // Frame 0 by hand: at −40° on the 2.2 m arc about (x, z) = (−0.3, −0.6), 1.4 m up,
    // looking at (−0.5, 0.35, −0.7), upright.
    let angle = -40 * Double.pi / 180
    let eye = SIMD3(-0.3 + 2.2 * sin(angle), 1.4, -0.6 + 2.2 * cos(angle))
    let toTarget = SIMD3(-0.5, 0.35, -0.7) - eye
    let forward = toTarget / (toTarget * toTarget).sum().squareRoot()
    let rightRaw = SIMD3(-forward.z, 0, forward.x)  // forward × (0, 1, 0)
    let right = rightRaw / (rightRaw * rightRaw).sum().squareRoot()
    let up = SIMD3(
      right.y * forward.z - right.z * forward.y, right.z * forward.x - right.x * forward.z,
      right.x * forward.y - right.y * forward.x)
    // Depth intrinsics: 1440, 955.8, 723.6 at 1920 × 1440, scaled to 256 × 192.
    let (fx, cx, cy) = (1440.0 * 256 / 1920, 955.8 * 256 / 1920, 723.6 * 192 / 1440)
    let (u, v) = (128, 96)
    let ray = right * ((Double(u) + 0.5 - cx) / fx) - up * ((Double(v) + 0.5 - cy) / fx) + forward
    // The box's front face is the plane z = −0.4; the ray's forward component is 1.
    let depth = (-0.4 - eye.z) / ray.z
    let hit = eye + depth * ray
    #expect(hit.x > -1.2 && hit.x < -0.6 && hit.y > 0.1 && hit.y < 0.6)

    let frame = try defaultFrame(0)
    #expect(frame.pose.position == eye)
    let meters = frame.depth.metersGrid()
    #expect(abs(Double(meters[v * 256 + u]) - depth) < 1e-6)
  }

  @Test func cameraPathStaysInTheRoomAndMovesSmoothly() {
    let poses = (0..<60).map { source.pose(at: $0) }
    for pose in poses {
      let p = pose.position
      #expect(abs(p.x) < 2 && p.z < 2 && p.z > -2 && p.y > 1.3 && p.y < 1.5)
      // Always looking at the target: it sits on the camera's −z axis. (Camera
      // coordinates by the rotation's transpose, written out here.)
      let offset = SIMD3(-0.5, 0.35, -0.7) - p
      let m = pose.worldFromCamera
      let columns = [m.columns.0, m.columns.1, m.columns.2].map { SIMD3($0.x, $0.y, $0.z) }
      let toTarget = columns.map { ($0 * offset).sum() }
      #expect(abs(toTarget[0]) < 1e-9 && abs(toTarget[1]) < 1e-9 && toTarget[2] < 0)
    }
    let steps = zip(poses, poses.dropFirst()).map { a, b in
      let d = b.position - a.position
      return (d * d).sum().squareRoot()
    }
    // 80° of a 2.2 m arc is 3.07 m (a little more with the 5 cm rise and fall); eased,
    // the fastest step is π/2 times the mean.
    #expect(steps.allSatisfy { $0 < 3.1 / 59 * 1.6 })
    #expect(abs(steps.reduce(0, +) - 2.2 * 80 * Double.pi / 180) < 0.05)
  }

  @Test(arguments: [0, 29, 59])
  func everyDepthPixelUnprojectsOntoASurface(index: Int) throws {
    let frame = try defaultFrame(index)
    let points = Self.unproject(frame)
    #expect(points.count == 256 * 192)  // the path never looks out of the room
    var worst = 0.0
    for (_, _, point) in points { worst = max(worst, scene.distanceToNearestSurface(point)) }
    #expect(worst < 1e-4)
  }

  @Test(arguments: [0, 59])
  func colourPixelOverADepthPixelShowsTheTextureThere(index: Int) throws {
    let frame = try defaultFrame(index)
    guard case .rgb(let image) = frame.color else {
      Issue.record("synthetic colour is RGB")
      return
    }
    #expect(image.width == 640 && image.height == 480)
    // Each depth pixel's surface and texture colour, from its unprojected point.
    var cells = [Cell?](repeating: nil, count: 256 * 192)
    for (u, v, point) in Self.unproject(frame) {
      guard let surface = scene.surface(containing: point) else { continue }
      cells[v * 256 + u] = Cell(surface: surface, color: scene.color(at: point, on: surface))
    }
    var checked = 0
    var mismatches = 0
    for v in 1..<191 {
      for u in 1..<255 {
        guard let cell = cells[v * 256 + u] else { continue }
        // Away from texture and surface edges: all eight neighbours in the same cell.
        let sameAround = (v - 1...v + 1).allSatisfy { nv in
          (u - 1...u + 1).allSatisfy { nu in cells[nv * 256 + nu] == cell }
        }
        guard sameAround else { continue }
        let color = cell.color
        // The colour pixel whose area holds the depth pixel's centre.
        let cu = Int(((Double(u) + 0.5) * 640 / 256).rounded(.down))
        let cv = Int(((Double(v) + 0.5) * 480 / 192).rounded(.down))
        checked += 1
        if image.pixel(x: cu, y: cv) != color { mismatches += 1 }
      }
    }
    #expect(checked > 256 * 192 / 2)
    #expect(mismatches == 0)
  }

  // MARK: - Confidence

  @Test func confidenceIsLowAtTheBoxSilhouetteAndHighOnTheNearFloor() throws {
    let frame = try defaultFrame(0)
    let confidence = try #require(frame.confidence)
    let meters = frame.depth.metersGrid()
    var grid = [SIMD3<Double>?](repeating: nil, count: 256 * 192)
    for (u, v, point) in Self.unproject(frame) { grid[v * 256 + u] = point }
    let boxFaces: Set<SyntheticScene.Surface> = [.boxTop, .boxFront, .boxLeft, .boxRight, .boxBack]

    // Box pixels beside a pixel a fifth deeper: the wall or floor behind the box.
    var silhouette = 0
    for v in 1..<191 {
      for u in 1..<255 {
        guard let point = grid[v * 256 + u], let surface = scene.surface(containing: point),
          boxFaces.contains(surface)
        else { continue }
        let depth = meters[v * 256 + u]
        let behind = [(1, 0), (-1, 0), (0, 1), (0, -1)].contains { du, dv in
          meters[(v + dv) * 256 + u + du] > depth * 1.2
        }
        guard behind else { continue }
        silhouette += 1
        #expect(confidence.value(x: u, y: v) == 0, "box edge pixel (\(u), \(v))")
      }
    }
    #expect(silhouette > 50)

    // The bottom middle of the image: floor about 1.7 m ahead, seen at about 30° from
    // its normal.
    for v in 170..<192 {
      for u in 96..<160 {
        let point = try #require(grid[v * 256 + u])
        #expect(scene.surface(containing: point) == .floor)
        #expect(confidence.value(x: u, y: v) == 2)
      }
    }
  }

  @Test func farAndGrazingPixelsAreAtBestMedium() throws {
    let frame = try defaultFrame(29)
    let confidence = try #require(frame.confidence)
    let meters = frame.depth.metersGrid()
    var far = 0
    for (index, depth) in meters.enumerated() where depth > 3 {
      far += 1
      #expect(confidence.values[index] <= 1)
    }
    #expect(far > 1000)
    // Values are only 0, 1 and 2, and every level occurs.
    #expect(Set(confidence.values) == [0, 1, 2])
  }

  @Test func raysLeavingTheRoomGiveZeroDepthLowConfidenceAndBlack() throws {
    // Standing at the room's centre, looking out through the open front.
    let outward = SyntheticCameraPath.worldFromCameraLooking(
      from: SIMD3(0, 1.4, 0), at: SIMD3(0, 1.6, 3))
    let frame = source.frame(worldFromCamera: outward, timestampSeconds: 0)
    let meters = frame.depth.metersGrid()
    let confidence = try #require(frame.confidence)
    guard case .rgb(let image) = frame.color else {
      Issue.record("synthetic colour is RGB")
      return
    }
    #expect(meters[96 * 256 + 128] == 0)
    #expect(image.pixel(x: 320, y: 240) == RGB8(0, 0, 0))
    let empty = meters.indices.filter { meters[$0] == 0 }
    #expect(empty.count > 256 * 192 / 2)
    #expect(empty.allSatisfy { confidence.values[$0] == 0 })
  }

  // MARK: - Noise and determinism

  @Test func sameSeedGivesSameBytesFromAnyThread() throws {
    let options = SyntheticRecordingOptions(
      frameCount: 3, colorWidth: 160, colorHeight: 120, depthNoiseMeters: 0.01, seed: 7)
    let first = SyntheticRecordingSource(options: options)
    let second = SyntheticRecordingSource(options: options)
    let sequential = try (0..<3).map { try first.frame(at: $0) }
    let slots = ParallelSlots<CapturedFrame?>(count: 3, initial: nil)
    DispatchQueue.concurrentPerform(iterations: 3) { index in
      slots[index] = try? second.frame(at: index)
    }
    for index in 0..<3 { #expect(slots[index] == sequential[index]) }

    var reseeded = options
    reseeded.seed = 8
    let other = try SyntheticRecordingSource(options: reseeded).frame(at: 2)
    #expect(other.depth.bytes != sequential[2].depth.bytes)
    #expect(other.confidence == sequential[2].confidence)
    #expect(other.color == sequential[2].color)

    // Each frame draws its own noise, not a copy of its neighbour's shifted by a pixel
    // (which seeding SplitMix64 with consecutive states would give).
    var exactOptions = options
    exactOptions.depthNoiseMeters = 0
    let exact = SyntheticRecordingSource(options: exactOptions)
    func draws(_ index: Int) throws -> [Double] {
      let clean = try exact.frame(at: index).depth.metersGrid()
      let noisy = sequential[index].depth.metersGrid()
      return zip(clean, noisy).map { a, b in
        a > 0 ? (Double(b) - Double(a)) / (0.01 * Double(a * a)) : 0
      }
    }
    let (zero, one) = (try draws(0), try draws(1))
    for shift in 0...2 {
      let pairs = zip(zero.dropFirst(shift), one).map { $0 * $1 }
      #expect(abs(pairs.reduce(0, +) / Double(pairs.count)) < 0.05, "shift \(shift)")
    }
  }

  @Test func noiseIsGaussianWithSigmaGrowingWithDepthSquared() throws {
    let sigma = 0.01
    let exact = try defaultFrame(29)
    let noisy = try SyntheticRecordingSource(
      options: SyntheticRecordingOptions(depthNoiseMeters: sigma, seed: 3)
    ).frame(at: 29)
    #expect(noisy.confidence == exact.confidence)
    let clean = exact.depth.metersGrid()
    let perturbed = noisy.depth.metersGrid()
    var normalized: [Double] = []
    for (a, b) in zip(clean, perturbed) where a > 0 {
      let d = Double(a)
      normalized.append((Double(b) - d) / (sigma * d * d))
    }
    let mean = normalized.reduce(0, +) / Double(normalized.count)
    let variance =
      normalized.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(normalized.count)
    #expect(abs(mean) < 0.03)
    #expect(abs(variance.squareRoot() - 1) < 0.03)
    #expect(normalized.allSatisfy { abs($0) <= 4.001 })
    // About 68% within one σ, as for a normal distribution.
    let within = Double(normalized.filter { abs($0) < 1 }.count) / Double(normalized.count)
    #expect(abs(within - 0.6827) < 0.02)
  }

  // MARK: - The recording as a source

  @Test func describesItselfAndTimesItsFrames() throws {
    let description = source.description
    #expect(description.format == "CloudScrub synthetic scene")
    #expect(description.app == "CloudScrub")
    #expect(description.framesPerSecond == 30)
    #expect(description.depthWidth == 256 && description.depthHeight == 192)
    #expect(description.colorWidth == 640 && description.colorHeight == 480)
    #expect(source.frameCount == 60)

    let frame = try defaultFrame(59)
    #expect(frame.timestampSeconds == 59.0 / 30)
    #expect(frame.pose.axes == .openGL)
    // An iPhone's 1920 × 1440 intrinsics, a third of them.
    let k = frame.intrinsics
    #expect(k.width == 640 && k.height == 480)
    #expect(abs(k.fx - 480) < 1e-9 && abs(k.fy - 480) < 1e-9)
    #expect(abs(k.cx - 318.6) < 1e-9 && abs(k.cy - 241.2) < 1e-9)
    #expect(frame.depth.width == 256 && frame.depth.height == 192)
    #expect(frame.depth.bytes.count == 256 * 192 * 4)

    #expect(throws: SyntheticRecordingError.frameOutOfRange(index: 60, frameCount: 60)) {
      try source.frame(at: 60)
    }
    #expect(throws: SyntheticRecordingError.self) { try source.frame(at: -1) }
  }

  @Test func wholeRecordingMatchesTheSourceFrameByFrame() throws {
    let options = SyntheticRecordingOptions(
      frameCount: 3, colorWidth: 160, colorHeight: 120, depthNoiseMeters: 0.005)
    let frames = SyntheticRecording.frames(options)
    let source = SyntheticRecordingSource(options: options)
    #expect(frames.count == 3)
    for index in 0..<3 { #expect(frames[index] == (try source.frame(at: index))) }
    // The camera moves: the first and last poses differ by the arc's 80°.
    #expect(frames[0].pose.position != frames[2].pose.position)
  }

  // MARK: - Helpers

  struct Cell: Equatable {
    var surface: SyntheticScene.Surface
    var color: RGB8
  }

  /// World points of every depth pixel that has a depth, unprojected here by hand:
  /// intrinsics scaled to the depth size, OpenCV camera axes, flipped to ARKit's,
  /// then the pose.
  static func unproject(_ frame: CapturedFrame) -> [(Int, Int, SIMD3<Double>)] {
    let (width, height) = (frame.depth.width, frame.depth.height)
    let k = frame.intrinsics
    let sx = Double(width) / Double(k.width)
    let sy = Double(height) / Double(k.height)
    let (fx, fy, cx, cy) = (k.fx * sx, k.fy * sy, k.cx * sx, k.cy * sy)
    let meters = frame.depth.metersGrid()
    var points: [(Int, Int, SIMD3<Double>)] = []
    for v in 0..<height {
      for u in 0..<width {
        let depth = Double(meters[v * width + u])
        guard depth > 0 else { continue }
        let x = (Double(u) + 0.5 - cx) / fx * depth
        let y = (Double(v) + 0.5 - cy) / fy * depth
        let inCamera = SIMD3(x, -y, -depth)
        points.append((u, v, frame.pose.worldFromCamera.apply(to: inCamera)))
      }
    }
    return points
  }
}
