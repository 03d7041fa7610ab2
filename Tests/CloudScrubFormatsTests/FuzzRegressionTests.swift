import Foundation
import FuzzTargets
import TestSupport
import Testing

/// The fuzz targets on their seeds and on every input a fuzzing campaign found a
/// defect with (kept minimised in `Tests/FuzzRegressions/<target>/`): each must return,
/// however bad the bytes. A defect that comes back traps or hangs this test.
@Suite struct FuzzRegressionTests {
  static let regressions = TestData.packageRoot.appendingPathComponent("Tests/FuzzRegressions")

  @Test func everyRegressionFolderNamesATarget() throws {
    let folders = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path)
      .filter { !$0.hasPrefix(".") && $0 != "README.md" }
    #expect(!folders.isEmpty)
    for folder in folders { #expect(FuzzTargets.named(folder) != nil, "\(folder)") }
  }

  @Test(arguments: FuzzTargets.all.map(\.name))
  func targetReturnsOnItsSeedsAndRegressions(name: String) throws {
    let target = try #require(FuzzTargets.named(name))
    let seeds = target.seeds()
    for seed in seeds {
      #expect(seed.count <= target.maxLength, "a seed of \(name) is longer than its max_len")
      target.run(seed)
    }
    let folder = Self.regressions.appendingPathComponent(name).path
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for file in files.sorted() {
      target.run(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))))
    }
    // Only EXR has no writer here to seed from (its seeds come from ../shared/data).
    #expect(name == "exr" || !seeds.isEmpty, "\(name) has no seeds")
  }
}
