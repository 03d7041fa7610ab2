import CloudScrubCore
import Foundation
import Testing
import TestSupport

@testable import CloudScrubCore
@testable import CloudScrubFormats

@Suite(.enabled(if: TestData.sharedData != nil))
struct DriftScratchTests {
  @Test func scratchDesk() throws {
    let folder = try #require(TestData.shared("record3d-exr-desk"))
    let recording = try Record3DEXRRecording(folder: folder)
    let options = AlignmentOptions()
    let frames = try DriftAlignment.prepare(recording, 0..<12, options: options)
    print("points", frames.map(\.pointsInCamera.count))
    var model = SurfelVoxelMap(voxelSizeMeters: options.voxelSizeMeters)
    for k in 0..<12 {
      let f = frames[k]
      let t = FloatRigid(f.worldFromCamera)
      if k > 0 {
        let r = PointToPlaneRegistration(options: options).register(f, to: model, from: f.worldFromCamera)
        let d = FrameAligner.rmsDisplacement(f.pointsInCamera.map(t.apply), by: r.worldFromCamera * f.worldFromCamera.rigidInverse)
        let planes = f.pointsInCamera.map(t.apply).filter { model.plane(containing: $0) != nil }.count
        let dist = f.pointsInCamera.map(t.apply).compactMap { p in model.plane(containing: p).map { abs(($0.normal * (p - $0.point)).sum()) } }.sorted()
        print("frame \(k): matches \(r.matches) planes \(planes) iters \(r.iterations) displacement \(d) median dist \(dist[dist.count/2]) p90 \(dist[dist.count*9/10])")
      }
      model.add(points: f.pointsInCamera.map(t.apply), normals: f.normalsInCamera.map(t.rotate), weight: 1)
    }
  }
}
