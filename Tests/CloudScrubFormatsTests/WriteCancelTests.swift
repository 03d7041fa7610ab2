import CloudScrubCore
import CloudScrubFormats
import Foundation
import TestSupport
import Testing

/// A cancel during the write of every format: the writer asks before each chunk of
/// about a megabyte and before renaming, stops at the first question that says yes,
/// removes its temporary files and leaves an earlier output byte for byte as it was.
@Suite struct WriteCancelTests {
  /// 200,000 coloured points: several chunks in every format.
  static let cloud: PointCloud = {
    let indices = 0..<200_000
    return PointCloud(
      positions: indices.map { i in
        Point3(Float(i % 500) * 0.002, Float(i / 500) * 0.002, Float(i % 7) * 0.01)
      },
      colors: indices.map { i in RGB8(UInt8(i % 256), UInt8(i / 256 % 256), 7) })
  }()

  static let formats: [(name: String, ext: String, ascii: Bool)] = [
    ("ply", "ply", false), ("ply", "ply", true), ("pcd", "pcd", false), ("pcd", "pcd", true),
    ("las", "las", false), ("e57", "e57", false), ("xyz", "xyz", false), ("csv", "csv", false),
  ]

  static let earlier = Data("an earlier export\n".utf8)

  /// The file names left in `folder`.
  static func left(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  @Test(arguments: 0..<formats.count)
  func aWholeCloudWriteStopsBetweenChunks(_ format: Int) throws {
    let (name, ext, ascii) = Self.formats[format]
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("scan.\(ext)")
    let job = ExportJob(
      sourcePath: "/nonexistent/in.ply", outputPath: output.path,
      writeOptions: CloudWriteOptions(ascii: ascii))
    let writer = try ExportFormats.writer(for: job)
    #expect(writer.name == name)
    func export(_ monitor: CountingExportMonitor?) throws {
      _ = try CloudExport.finish(
        Self.cloud, stages: [], frameIndices: [], job: job, writer: writer,
        viewpoint: { _ in nil }, monitor: monitor)
    }
    try export(nil)
    let plain = try Data(contentsOf: output)
    let free = CountingExportMonitor()
    try export(free)
    // Nobody stopping it, the same bytes; asked before the write, before each chunk (at
    // least three of them) and before the rename.
    #expect(try Data(contentsOf: output) == plain)
    #expect(free.stop.asked >= 5, "\(name) asked \(free.stop.asked) times")
    for k in Set([1, 2, free.stop.asked / 2, free.stop.asked]).sorted() {
      try Self.earlier.write(to: output)
      let monitor = CountingExportMonitor(stopsAt: k)
      let error = #expect(throws: CleaningCancelled.self) { try export(monitor) }
      #expect(error == CleaningCancelled(step: "writing"))
      #expect(monitor.stop.askedAfterStop == 0, "\(name): stopped at \(k), went on")
      #expect(try Data(contentsOf: output) == Self.earlier, "\(name): stopped at \(k)")
      #expect(try Self.left(folder) == [output.lastPathComponent], "\(name): stopped at \(k)")
    }
  }

  /// The streamed writers (a recording's frames, spooled beside the target; E57 held
  /// in memory) stop in an append or in the final copy alike.
  @Test(arguments: 0..<formats.count)
  func aStreamedWriteStopsInAppendsAndInTheFinish(_ format: Int) throws {
    let (name, ext, ascii) = Self.formats[format]
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("scan.\(ext)")
    let writer = try ExportFormats.writer(for: output.path)
    let pieces = (0..<4).map { k in
      Self.cloud.subset(indices: Array(k * 50_000..<(k + 1) * 50_000))
    }
    let provenance = ExportProvenance(source: "in.ply", frames: nil, cleaning: nil)
    func export(_ stop: CountingStop) throws {
      let stream = try writer.streamWriter(
        path: output.path, fields: Self.cloud.subset(indices: []),
        options: CloudWriteOptions(ascii: ascii), inputs: [])
      do {
        try WriteCancellation.stopping(when: stop.check) {
          for piece in pieces { try stream.append(piece) }
          try stream.finish(provenance: provenance, progress: nil)
        }
      } catch {
        stream.abandon()
        throw error
      }
    }
    let free = CountingStop()
    try export(free)
    #expect(free.asked >= 3, "\(name) asked \(free.asked) times")
    for k in Set([1, free.asked / 2, free.asked]).sorted() {
      try Self.earlier.write(to: output)
      let stop = CountingStop(stopsAt: k)
      let error = #expect(throws: CleaningCancelled.self) { try export(stop) }
      #expect(error == CleaningCancelled(step: "writing"))
      #expect(stop.askedAfterStop == 0, "\(name): stopped at \(k), went on")
      #expect(try Data(contentsOf: output) == Self.earlier, "\(name): stopped at \(k)")
      #expect(try Self.left(folder) == [output.lastPathComponent], "\(name): stopped at \(k)")
    }
  }

  /// The scope is the calling thread's: a write on another thread does not see it.
  @Test func aWriteOnAnotherThreadIsNotStopped() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("scan.ply").path
    let stopped = CountingStop(stopsAt: 1)
    let failure = ErrorBox()
    WriteCancellation.stopping(when: stopped.check) {
      let writing = BackgroundWork<Never>()
      writing.start {
        do { try PLYWriter.write(Self.cloud, to: output) } catch { failure.error = error }
        return nil
      }
      writing.waitUntilIdle()
    }
    #expect(failure.error == nil)
    #expect(stopped.asked == 0)
    #expect(try PLYReader.read(path: output).cloud.count == Self.cloud.count)
  }
}

private final class ErrorBox: @unchecked Sendable {
  var error: (any Error)?
}
