import CloudScrubCore
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubApp
@testable import CloudScrubCLI

/// The cleaning preview while refined poses show goes through the export's
/// unprojection: the shown frames unprojected again with the refined trajectory, so its
/// points are the window's export's (`cloudscrub export --poses`), not the loaded
/// points moved by their frames' corrections (which round differently).
@Suite struct RefinedPreviewTests {
  /// The preview of frames 0–23 at medium confidence with `cleaning`, and the window's
  /// export of the same with the refined poses, read back.
  static func previewAndExport(_ cleaning: CleaningOptions, refinedPoses: Bool = true) throws
    -> (preview: [Point3], exported: [Point3])
  {
    let (_, document, content, refinement) = try WindowRefinementTests.refined.get()
    let request = CleaningPreview.Request(
      options: cleaning, frames: 0...23, minConfidence: .medium, points: content.store.count,
      poseCorrections: refinement.corrections.refinedFromOriginal,
      refinedPoses: refinedPoses ? refinement.trajectory.poses : nil)
    let preview = try CleaningPreview.compute(
      request, store: content.store, content: content, loader: document.loader
    ).get().store
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("window.ply").path
    _ = try DocumentOpener().export(
      WindowExportRequest(
        document: document, content: content, visibleFrames: 0...23, minConfidence: .medium,
        cleaning: cleaning, outputPath: path, refinedPoses: refinement.trajectory.poses))
    let input = try InputLoader.loadCloud(path)
    return (preview.cloud().positions, input.cloud.positions)
  }

  @Test func thePreviewsPointsAreTheRefinedExportsPoints() throws {
    let (preview, exported) = try Self.previewAndExport(CleaningOptions())
    #expect(preview.count > 10_000)
    #expect(preview == exported)
  }

  @Test func afterAVoxelMergeToo() throws {
    let (preview, exported) = try Self.previewAndExport(CleaningOptions(voxelSizeMeters: 0.03))
    #expect(preview.count > 1_000)
    #expect(preview == exported)
  }

  @Test func theSavedTrajectoryReadsBackAsTheWindowKeepsIt() throws {
    // What "Save poses" writes parses back to the very poses the window draws and
    // exports with (`PoseRefinement.asSaved` is a fixed point of the TUM round trip).
    let (_, _, _, refinement) = try WindowRefinementTests.refined.get()
    let back = try TUMTrajectory.parse(TUMTrajectory.text(refinement.trajectory))
    #expect(back.poses == refinement.trajectory.poses)
  }

  @Test func movingTheLoadedPointsInsteadIsOnlyClose() throws {
    // Without the trajectory the preview moves the loaded points by their corrections:
    // the same points to within micrometres, but not through the same arithmetic.
    let (moved, exported) = try Self.previewAndExport(CleaningOptions(), refinedPoses: false)
    #expect(moved.count == exported.count)
    let largest =
      zip(moved, exported).map { a, b in
        max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
      }.max() ?? 0
    print("preview moving the loaded points: at most \(largest) m from the export")
    #expect(largest < 1e-4)
  }
}
