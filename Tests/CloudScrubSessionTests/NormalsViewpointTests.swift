import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubSession

/// The normals face each frame's capture camera; a frame whose camera cannot be read
/// ends the cleaning with an error naming it, instead of normals facing the origin.
@Suite struct NormalsViewpointTests {
  /// A synthetic recording whose frame `failing` has no readable pose.
  struct PoselessFrame: RecordingSource {
    var inner: SyntheticRecordingSource
    var failing: Int
    var description: RecordingDescription { inner.description }
    var frameCount: Int { inner.frameCount }
    func frame(at index: Int) throws -> CapturedFrame { try inner.frame(at: index) }
    func frameInfo(at index: Int) throws -> FrameInfo {
      guard index != failing else {
        throw FileError(.cannotRead("frame \(index)'s pose is not a number"), path: "poses.txt")
      }
      return try inner.frameInfo(at: index)
    }
  }

  /// Points on the plane z = `height` from frames 0 and 1, with their `frame` attribute.
  func twoFrameCloud(height: Float = 0) -> PointCloud {
    var positions: [Point3] = []
    for y in 0..<8 {
      for x in 0..<8 { positions.append(Point3(Float(x) * 0.01, Float(y) * 0.01, height)) }
    }
    var cloud = PointCloud(positions: positions)
    cloud.attributes.append(
      PointAttribute(
        name: "frame", values: .uint32(positions.indices.map { UInt32($0 % 2) })))
    return cloud
  }

  @Test func normalsFaceTheCaptureCamera() throws {
    let source = SyntheticRecordingSource(options: SyntheticRecordingOptions(frameCount: 2))
    var options = CleaningOptions()
    options.normalNeighbours = 6
    let cameras = try (0..<2).map { try source.frameInfo(at: $0).pose.position }
    // A plane a metre below both cameras: every normal turns up, towards them.
    let below = Float(min(cameras[0].z, cameras[1].z)) - 1
    let cleaned = try CleaningPipeline.run(
      twoFrameCloud(height: below), options: options, viewpoint: ExportSteps.viewpoint(source))
    let normals = try #require(cleaned.cloud.normals)
    #expect(normals.count == 64 && normals.allSatisfy { $0.z > 0.99 })
    // Below the plane, they turn down.
    let above = Float(max(cameras[0].z, cameras[1].z)) + 1
    let flipped = try CleaningPipeline.run(
      twoFrameCloud(height: above), options: options, viewpoint: ExportSteps.viewpoint(source))
    #expect(flipped.cloud.normals?.allSatisfy { $0.z < -0.99 } == true)
  }

  @Test func aFrameWithoutAReadablePoseNamesIt() throws {
    let source = PoselessFrame(
      inner: SyntheticRecordingSource(options: SyntheticRecordingOptions(frameCount: 2)),
      failing: 1)
    var options = CleaningOptions()
    options.normalNeighbours = 6
    let error = #expect(throws: ViewpointError.self) {
      try CleaningPipeline.run(
        twoFrameCloud(), options: options, viewpoint: ExportSteps.viewpoint(source))
    }
    #expect(error?.frame == 1)
    #expect(
      error?.description
        == "cannot orient the normals of frame 1: its camera pose cannot be read "
        + "(cannot read: frame 1's pose is not a number: poses.txt)")
  }
}
