import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// Fusion of the synthetic room, whose every surface is known.
@Suite struct RoomFusionTests {
  static let voxel: Float = 0.02
  static let scene = SyntheticScene.standard

  static let fused: RecordingFusion.Result = {
    let fusion = RecordingFusion(
      loader: RecordingLoader(
        source: SyntheticRecordingSource(
          options: SyntheticRecordingOptions(frameCount: 24, colorWidth: 256, colorHeight: 192))),
      options: FusionOptions(voxelSizeMeters: voxel))
    do {
      return try fusion.run()
    } catch {
      preconditionFailure("fusion failed: \(error)")
    }
  }()

  @Test func verticesLieOnTheRoomsSurfaces() {
    let mesh = Self.fused.mesh
    #expect(mesh.vertexCount > 10_000)
    let distances = mesh.positions.map {
      Self.scene.distanceToNearestSurface(SIMD3<Double>($0))
    }.sorted()
    let voxel = Double(Self.voxel)
    func fraction(_ percent: Int) -> Double {
      distances[distances.count * percent / 100] / voxel
    }
    // The box's edges and corners, where the surface bends within a voxel, make the tail.
    #expect(fraction(50) < 0.05, "median \(fraction(50)) voxel")
    #expect(fraction(90) < 0.15, "90 % \(fraction(90)) voxel")
    #expect(fraction(99) < 0.35, "99 % \(fraction(99)) voxel")
  }

  /// Vertices of the room's walls and floor at least 3 cm from a texture cell's border
  /// and 5 cm from any other surface (whose colour bleeds across the corner) have their
  /// cell's colour.
  @Test func verticesHaveTheirSurfacesColours() {
    let mesh = Self.fused.mesh
    let scene = Self.scene
    let planes: [SyntheticScene.Surface] = [.floor, .backWall, .leftWall, .rightWall]
    var matching = 0
    var inside = 0
    for (p, c) in zip(mesh.positions, mesh.colors) {
      let point = SIMD3<Double>(p)
      guard let surface = scene.surface(containing: point, tolerance: 0.005),
        planes.contains(surface)
      else { continue }
      let cell = scene.cellIndices(x: point.x, y: point.y, z: point.z, on: surface)
      let nearBorder = [-0.03, 0.03].contains { dx in
        [-0.03, 0.03].contains { dy in
          [-0.03, 0.03].contains { dz in
            scene.cellIndices(x: point.x + dx, y: point.y + dy, z: point.z + dz, on: surface)
              != cell
          }
        }
      }
      let nearOther = SyntheticScene.Surface.allCases.contains { other in
        guard other != surface else { return false }
        let distance =
          other == .sphere
          ? abs(
            ((point - scene.sphereCenter) * (point - scene.sphereCenter)).sum().squareRoot()
              - scene.sphereRadius)
          : scene.rectangle(for: other).distance(to: point)
        return distance < 0.05
      }
      guard !nearBorder, !nearOther else { continue }
      inside += 1
      let truth = scene.color(at: point, on: surface)
      let close = [(c.r, truth.r), (c.g, truth.g), (c.b, truth.b)].allSatisfy {
        abs(Int($0) - Int($1)) <= 8
      }
      if close { matching += 1 }
    }
    #expect(inside > 5_000)
    #expect(Double(matching) > 0.98 * Double(inside), "\(matching) of \(inside)")
  }

  @Test func automaticVoxelFollowsTheMedianDepth() {
    #expect(FusionOptions.automaticVoxelSize(medianDepth: 1, focalPixels: 200) == 0.01)
    #expect(FusionOptions.automaticVoxelSize(medianDepth: 3, focalPixels: 210) == 0.029)
    #expect(FusionOptions.automaticVoxelSize(medianDepth: 0.1, focalPixels: 210) == 0.002)
    #expect(FusionOptions.automaticVoxelSize(medianDepth: 40, focalPixels: 210) == 0.1)
  }

  @Test func tooSmallAVoxelIsRefusedBeforeAllocatingWithOneThatFits() throws {
    let fusion = RecordingFusion(
      loader: RecordingLoader(
        source: SyntheticRecordingSource(options: SyntheticRecordingOptions(frameCount: 4))),
      options: FusionOptions(
        voxelSizeMeters: 0.005, memoryLimitBytes: 100 * TSDFVolume.bytesPerBlock))
    #expect {
      try fusion.plan()
    } throws: { error in
      guard case .tooManyBlocks(let limit, let voxel, let fitting?) = error as? FusionError else {
        return false
      }
      return limit == 100 && voxel == 0.005 && fitting > 0.005
    }
  }

  @Test func tooLongATruncationIsRefusedWithOneThatFits() throws {
    func fusion(truncation: Float) -> RecordingFusion {
      RecordingFusion(
        loader: RecordingLoader(
          source: SyntheticRecordingSource(options: SyntheticRecordingOptions(frameCount: 2))),
        options: FusionOptions(voxelSizeMeters: 0.02, truncationMeters: truncation))
    }
    var refusal: FusionError?
    do { _ = try fusion(truncation: 1e9).plan() } catch { refusal = error as? FusionError }
    // 32 voxels of 2 cm.
    #expect(refusal == .truncationTooLong(truncation: 1e9, voxelSize: 0.02, longest: 0.64))
    #expect(refusal?.description.contains("--truncation 0.64 would fit") == true)
    #expect(try fusion(truncation: 0.64).plan().truncation == 0.64)
  }
}
