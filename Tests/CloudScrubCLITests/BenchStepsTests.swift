import Testing

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
}
