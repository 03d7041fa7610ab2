import Foundation
import TestSupport
import Testing

@testable import CloudScrubBench
@testable import CloudScrubCLI

/// `bench scale --steps` and `bench huge --steps`: the steps named run, and a step that
/// is not the mode's is an error naming it and listing the mode's steps.
@Suite struct BenchStepsTests {
  @Test func namedStepsAreTheOnesThatRun() throws {
    #expect(try ScaleBenchmark.steps("raw,voxel") == ["raw", "voxel"])
    #expect(try ScaleBenchmark.steps(nil) == ScaleBenchmark.allSteps)
    #expect(ScaleBenchmark.allSteps.count == 8)
    #expect(try HugePLYBenchmark.steps("process") == ["process"])
    #expect(try HugePLYBenchmark.steps(nil) == ["first", "window", "process"])
  }

  @Test func aStepOfAnotherModeIsNamedInTheError() {
    // "ply" is a step of scale, not of huge.
    do {
      _ = try HugePLYBenchmark.steps("first,ply")
      Issue.record("no error for a step huge does not have")
    } catch {
      #expect(
        "\(error)".contains("no step 'ply' in bench huge (steps: first, window, process)"),
        "\(error)")
    }
    do {
      _ = try ScaleBenchmark.steps("raw,first")
      Issue.record("no error for a step scale does not have")
    } catch {
      #expect("\(error)".contains("no step 'first' in bench scale"), "\(error)")
    }
  }

  /// The modes `bench --help` lists are the modes that run, each once.
  @Test func everyListedModeRunsAndNoOtherDoes() {
    let listed = BenchUsage.modes.map(\.name)
    #expect(Set(listed).count == listed.count)
    #expect(Set(listed) == Set(BenchCommand.runners.keys))
    #expect(listed.first == "ply")
  }

  @Test func anUnknownModeListsTheModes() {
    do {
      try BenchCommand.run(["nosuchmode"])
      Issue.record("no error for an unknown mode")
    } catch {
      #expect(
        "\(error)"
          == "bench runs one of ply, ingest, clean, view, render, lzfse, formats, clouds, e57, "
          + "scale, lod, huge, drift, cancel, fuse, video, not 'nosuchmode'")
    }
  }

  /// `bench render` times a render's steps by the marks `render` prints when traced.
  @Test func aTracedRenderMarksItsStepsInOrder() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ply = folder.appendingPathComponent("cloud.ply").path
    #expect(try CommandRunner.run(["synth", ply, "--points", "20000"]).status == 0)
    let result = try CommandRunner.run(
      executable: CommandRunner.binary,
      ["render", ply, "-o", folder.appendingPathComponent("cloud.png").path, "--size", "64x48"],
      environment: ["CLOUDSCRUB_TRACE_STARTUP": "1"])
    #expect(result.status == 0, "\(result.standardError)")
    let steps = try #require(RenderBenchmark.renderSteps(result.standardError))
    #expect(steps["started"] == 0)
    let read = try #require(steps["read"])
    let drawn = try #require(steps["drawn"])
    let written = try #require(steps["written"])
    #expect(read <= drawn && drawn <= written, "\(steps)")
    #expect(RenderBenchmark.renderSteps("trace 0.1 s  frame drawn") == nil)
  }
}
