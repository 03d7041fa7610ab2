import Foundation
import Testing

@testable import CloudScrubCore

/// Trajectory files as `--poses` meets them from outside: huge lines, huge files, paths
/// that are no file, comments in other spellings.
@Suite struct TUMTrajectoryInputTests {
  /// A scratch folder, removed by the caller's `defer`.
  static func folder() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("cloudscrub-tum-input-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func aHugeLineIsCountedAndItsFieldShownShort() throws {
    // 3,000,000 fields on line 2: counted exactly, without keeping them.
    let fields = String(repeating: "0 ", count: 3_000_000)
    #expect(throws: TrajectoryProblem.malformedLine(line: 2, fields: 3_000_000)) {
      try TUMTrajectory.parse("# poses\n" + fields + "\n")
    }
    // A field of a million letters is named by its first 40 and an ellipsis.
    let word = String(repeating: "x", count: 1_000_000)
    let expected = String(repeating: "x", count: 40) + "…"
    #expect(throws: TrajectoryProblem.notANumber(line: 1, field: expected)) {
      try TUMTrajectory.parse("0 0 0 \(word) 0 0 0 1\n")
    }
    #expect(throws: TrajectoryProblem.nonFinite(line: 1, field: "inf")) {
      try TUMTrajectory.parse("0 0 0 inf 0 0 0 1\n")
    }
  }

  @Test func separatorsLineEndsAndCommentsAsWrittenByOtherTools() throws {
    // Commas, tabs, CRLF, blank lines with spaces, and an indented axes comment.
    let text = "  #  Camera Axes: openGL\r\n\r\n0,1,2,3,0,0,0,1\r\n \t \n1\t1 2 3 0 0 0 1"
    let read = try TUMTrajectory.parse(text)
    #expect(read.count == 2)
    #expect(read.poses.map(\.axes) == [.openGL, .openGL])
    #expect(read.poses[0].position == SIMD3(1, 2, 3))
    #expect(read.timestampsSeconds == [0, 1])
    #expect(throws: TrajectoryProblem.unknownAxes(line: 2, name: "sideways")) {
      try TUMTrajectory.parse("\n# camera axes:   sideways (x left)\n0 0 0 0 0 0 0 1\n")
    }
  }

  @Test func bytesThatAreNotUTF8AreNoNumber() throws {
    let bytes: [UInt8] =
      Array("# caf".utf8) + [0xE9] + Array("\n0 0 0 0 0 0 0 1\n1 ".utf8)
      + [0xFF] + Array(" 0 0 0 0 0 1\n".utf8)
    #expect(throws: TrajectoryProblem.notANumber(line: 3, field: "\u{FFFD}")) {
      try bytes.withUnsafeBytes { try TUMTrajectory.parse($0) }
    }
  }

  @Test func aPipeIsRefusedAtOnce() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let pipe = folder + "/poses.txt"
    #expect(mkfifo(pipe, 0o644) == 0)
    // Nothing ever writes to the pipe: a reader that waited for it would never return.
    do {
      _ = try TUMTrajectory.read(path: pipe)
      Issue.record("no error")
    } catch let error as FileError {
      #expect(error.reason == .notARegularFile)
      #expect(error.path == pipe)
    }
    #expect(throws: FileError.self) { _ = try TUMTrajectory.read(path: folder) }
  }

  @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/poses.txt"
    // A sparse file one byte over the limit: no disk is written.
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    #expect(truncate(path, off_t(TUMTrajectory.maximumBytes + 1)) == 0)
    do {
      _ = try TUMTrajectory.read(path: path)
      Issue.record("no error")
    } catch let error as TrajectoryError {
      let expected = TrajectoryProblem.tooLarge(
        bytes: TUMTrajectory.maximumBytes + 1, limit: TUMTrajectory.maximumBytes)
      #expect(error.reason == expected)
      #expect("\(error)".hasSuffix(": " + path))
    }
  }
}
