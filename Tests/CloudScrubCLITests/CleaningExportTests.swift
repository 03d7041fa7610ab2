import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// `export` with cleaning options, on the real binary.
@Suite struct CleaningExportTests {
  @Test func dryRunPrintsEachStageAndWritesNothing() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.ply").path
    let result = try CommandRunner.run([
      "export", "Assets/sample.ply", "-o", output, "--crop", "-2,0,-2,2,1,2", "--voxel", "0.05",
      "--sor", "20,2", "--dry-run",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("stage") == true)
    #expect(lines.contains { $0.hasPrefix("read") && $0.hasSuffix(" 40000") })
    #expect(lines.contains { $0.hasPrefix("crop ") })
    #expect(lines.contains { $0.hasPrefix("voxel ") })
    #expect(lines.contains { $0.hasPrefix("statistical outliers ") })
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func cleanedExportMatchesTheCorePipelineAndRecordsItsOptions() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.ply").path
    let result = try CommandRunner.run([
      "export", "Assets/sample.ply", "-o", output, "--height-band", "0-1.5", "--voxel", "0.04",
      "--radius-outlier", "0.1,3", "--normals",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let written = try PLYReader.read(path: output)
    let source = try PLYReader.read(path: TestData.samplePLY).cloud
    let expected = try CleaningPipeline.run(
      source,
      options: CleaningOptions(
        heightBandMeters: 0...1.5, voxelSizeMeters: 0.04,
        radius: RadiusOutlierOptions(radiusMeters: 0.1, minNeighbours: 3), normalNeighbours: 20)
    ).cloud
    #expect(written.cloud.positions == expected.positions)
    #expect(written.cloud.colors == expected.colors)
    #expect(written.cloud.normals == expected.normals)
    #expect(written.cloud.positions.allSatisfy { $0.y >= 0 && $0.y <= 1.5 })
    #expect(
      written.header.comments.contains {
        $0
          == "cleaning: height band 0.0-1.5 m, voxel 0.04 m, radius outliers 0.1,3, normals from 20 neighbours"
      })
  }

  @Test func badCleaningFlagsAreUsageErrors() throws {
    for flags in [
      ["--crop", "1,2,3"], ["--voxel", "-1"], ["--sor", "20"], ["--radius-outlier", "x,3"],
    ] {
      let result = try CommandRunner.run(
        ["export", "Assets/sample.ply", "-o", "/tmp/never.ply"] + flags)
      #expect(result.status == 2, "\(flags)")
    }
  }
}
