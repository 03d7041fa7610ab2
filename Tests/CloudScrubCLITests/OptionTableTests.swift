import CloudScrubCore
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubCLI

/// The options table drives the parser, every `--help` (golden files) and the guide's
/// tables (which must match `cloudscrub help --markdown`).
@Suite struct OptionTableTests {
  @Test(arguments: OptionTable.commandNames)
  func helpIsBuiltFromTheTable(command: String) throws {
    let result = try CommandRunner.run([command, "--help"])
    #expect(result.status == 0, "\(result.standardError)")
    Golden.check(result.standardOutput, against: "help-\(command).txt")
  }

  @Test(arguments: OptionTable.commandNames)
  func guideHoldsTheTableOfHelpMarkdown(command: String) throws {
    let result = try CommandRunner.run(["help", "--markdown", command])
    #expect(result.status == 0, "\(result.standardError)")
    let page = try String(
      contentsOf: TestData.packageRoot.appendingPathComponent("docs/guide/\(command).md"),
      encoding: .utf8)
    let begin = "<!-- options:begin (cloudscrub help --markdown \(command)) -->\n"
    let end = "<!-- options:end -->"
    let start = try #require(page.range(of: begin), "docs/guide/\(command).md lacks \(begin)")
    let stop = try #require(page.range(of: end, range: start.upperBound..<page.endIndex))
    #expect(
      String(page[start.upperBound..<stop.lowerBound]) == result.standardOutput,
      "docs/guide/\(command).md's options differ from 'cloudscrub help --markdown \(command)'")
  }

  @Test func helpMarkdownJoinsEveryCommandsTable() throws {
    let all = try CommandRunner.run(["help", "--markdown"])
    var pieces: [String] = []
    for command in OptionTable.commandNames {
      pieces.append(try CommandRunner.run(["help", "--markdown", command]).standardOutput)
    }
    #expect(all.standardOutput == pieces.joined(separator: "\n"))
    #expect(try CommandRunner.run(["help", "--markdown", "nosuch"]).status == 2)
  }

  @Test(arguments: OptionTable.commandNames)
  func noSpellingIsDeclaredTwiceForOneCommand(command: String) {
    let spellings = OptionTable.command(command).rows.flatMap(\.spellings)
    #expect(Set(spellings).count == spellings.count, "\(spellings)")
  }

  @Test func everyRowNamesKnownCommandsAndHasHelp() {
    for row in OptionTable.rows {
      #expect(!row.help.isEmpty && !row.commands.isEmpty, "\(row.name)")
      #expect(row.commands.isSubset(of: Set(OptionTable.commandNames)), "\(row.name)")
      #expect((row.kind == .flag) == row.syntax.isEmpty, "\(row.name)")
    }
  }

  @Test func renderAndViewTakeEveryRecordingOptionExportTakes() {
    let export = Set(ExportCommand.spec.rows.filter { $0.group == .recording }.map(\.name))
    for command in [RenderCommand.spec, ViewCommand.spec] {
      let names = Set(command.rows.filter { $0.group == .recording }.map(\.name))
      #expect(names == export, "\(command.name)")
    }
    let cleaning = Set(ExportCommand.spec.rows.filter { $0.group == .cleaning }.map(\.name))
    let renderCleaning = Set(RenderCommand.spec.rows.filter { $0.group == .cleaning }.map(\.name))
    #expect(cleaning.subtracting(renderCleaning) == ["dry-run"])
  }

  @Test func helpWrapsAtEightyColumnsBesideTheHead() {
    let row = OptionRow.value(
      "stride", "N", default: "1", "use every N-th depth pixel",
      commands: ["export"])
    #expect(
      CommandSpec.helpLines(row) == [
        "  --stride N            use every N-th depth pixel (default: 1)"
      ])
    let wide = OptionRow.value(
      "depth-range", "MIN-MAX", default: nil, "keep depths in this range", commands: ["export"])
    #expect(
      CommandSpec.helpLines(wide) == [
        "  --depth-range MIN-MAX", String(repeating: " ", count: 24) + "keep depths in this range",
      ])
    #expect(CommandSpec.wrap("aa bb cc", width: 5) == ["aa bb", "cc"])
  }

  @Test func theParserTakesEverySpellingAndNamesWhatIsWrong() throws {
    let parsed = try ParsedArguments(
      ["in.csrec", "-o", "a.png", "--depth-range=0.2-1.0", "--edl"], command: RenderCommand.spec)
    #expect(parsed.positionals == ["in.csrec"])
    #expect(parsed.value("output") == "a.png" && parsed.value("depth-range") == "0.2-1.0")
    #expect(parsed.has("edl"))
    #expect(throws: UsageError.self) {
      try ParsedArguments(["in.ply", "--dry-run"], command: RenderCommand.spec)
    }
    do {
      _ = try ParsedArguments(["-o", "x.ply"], command: ExportCommand.spec)
      Issue.record("no error for a missing PATH")
    } catch {
      #expect(error.description == "missing argument PATH")
    }
  }
}

/// One parser per value kind; each error names the option and the value.
@Suite struct OptionValueTests {
  func parsed(_ arguments: [String]) throws -> ParsedArguments {
    try ParsedArguments(["in.csrec", "-o", "out.png"] + arguments, command: RenderCommand.spec)
  }

  func message(_ arguments: [String], _ read: (ParsedArguments) throws -> Void) -> String {
    do {
      try read(try parsed(arguments))
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test func ranges() throws {
    #expect(try parsed(["--frames", "2-5"]).indexRange("frames") == 2...5)
    #expect(try parsed(["--frames", "3,3"]).indexRange("frames") == 3...3)
    #expect(try parsed([]).indexRange("frames") == nil)
    #expect(
      message(["--frames", "5-2"]) { _ = try $0.indexRange("frames") }
        == "--frames needs FIRST-LAST or FIRST,LAST with 0 ≤ FIRST ≤ LAST, not '5-2'")
    #expect(try parsed(["--height-band", "-1.5-0.8"]).metresRange("height-band") == -1.5...0.8)
    #expect(
      try parsed(["--depth-range", "0.2-1"]).metresRange("depth-range", atLeast: 0) == 0.2...1)
    #expect(
      message(["--depth-range", "-1,3"]) { _ = try $0.metresRange("depth-range", atLeast: 0) }
        == "--depth-range needs MIN-MAX or MIN,MAX in metres with 0 ≤ MIN ≤ MAX, not '-1,3'")
  }

  @Test func sizes() throws {
    let size = try parsed(["--size", "640X480"]).size("size", widths: 16...8192, heights: 16...8192)
    #expect(size?.width == 640 && size?.height == 480)
    #expect(
      message(["--size", "640x"]) { _ = try $0.size("size", widths: 16...64, heights: 16...64) }
        == "--size needs WxH with each side 16 to 64, not '640x'")
    #expect(
      message(["--size", "300x200"]) {
        _ = try $0.size("size", widths: 320...8192, heights: 240...8192)
      } == "--size needs WxH with 320x240 to 8192x8192, not '300x200'")
  }

  @Test func levelsMetresCountsAndChoices() throws {
    #expect(try parsed(["--min-confidence", "medium"]).level("min-confidence") == .medium)
    #expect(
      message(["--min-confidence", "mid"]) { _ = try $0.level("min-confidence") }
        == "--min-confidence is low, medium or high, not 'mid'")
    #expect(try parsed(["--voxel", "0.005"]).metres("voxel") == 0.005)
    #expect(
      message(["--merge", "0"]) { _ = try $0.metres("merge") }
        == "--merge needs a size in metres above 0, not '0'")
    #expect(try parsed(["--budget", "1_000"]).count("budget") == 1000)
    #expect(
      message(["--stride", "0"]) { _ = try $0.count("stride") }
        == "--stride needs a whole number of at least 1, not '0'")
    #expect(
      try parsed(["--renderer", "cpu"]).choice("renderer", of: PointRendererChoiceName.self) == .cpu
    )
    #expect(
      message(["--overlays", "maybe"]) { _ = try $0.onOff("overlays") }
        == "--overlays is on or off, not 'maybe'")
    #expect(
      message(["--point-size", "40"]) {
        _ = try $0.number("point-size", in: 1...32, unit: "pixels")
      }
        == "--point-size needs a number of pixels from 1 to 32, not '40'")
  }

  @Test func byteSizes() throws {
    #expect(try parsed(["--gpu-cache", "512M"]).byteSize("gpu-cache") == 512 << 20)
    #expect(try parsed(["--gpu-cache", "2g"]).byteSize("gpu-cache") == 2 << 30)
    #expect(try parsed(["--gpu-cache", "1.5G"]).byteSize("gpu-cache") == 3 << 29)
    #expect(try parsed(["--gpu-cache", "64K"]).byteSize("gpu-cache") == 65_536)
    #expect(try parsed(["--gpu-cache", "1048576"]).byteSize("gpu-cache") == 1 << 20)
    #expect(try parsed([]).byteSize("gpu-cache") == nil)
    for bad in ["2GB", "lots", "-1M", "512KiB", "M", "0.5K"] {
      #expect(
        message(["--gpu-cache", bad]) { _ = try $0.byteSize("gpu-cache", atLeast: 1 << 20) }
          == "--gpu-cache needs a size in bytes of at least 1048576, with K, M, G or T for KiB,"
          + " MiB, GiB or TiB (512M, 2G), not '\(bad)'")
    }
  }

  @Test func numberLists() throws {
    let crop = try parsed(["--crop", "0, 1,2,3,4,5"]).numbers("crop", count: 6, syntax: "BOX")
    #expect(crop == [0, 1, 2, 3, 4, 5])
    #expect(
      message(["--sor", "20"]) { _ = try $0.numbers("sor", count: 2, syntax: "K,STD") }
        == "--sor needs K,STD, not '20'")
    let options = try CleaningFlags.options(try parsed(["--sor", "20,2", "--crop", "0,0,0,1,1,1"]))
    #expect(options.statistical == StatisticalOutlierOptions(neighbours: 20, stdRatio: 2))
    #expect(options.crop == CropBox(min: Point3(0, 0, 0), max: Point3(1, 1, 1)))
    #expect(throws: UsageError.self) { try CleaningFlags.options(try parsed(["--sor", "2.5,2"])) }
  }
}

/// The renderer choice's spellings, for the choice parser's test without the Render
/// module.
enum PointRendererChoiceName: String, CaseIterable {
  case auto, gl, cpu
}
