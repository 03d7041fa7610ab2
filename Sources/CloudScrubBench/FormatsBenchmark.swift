import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// `cloudscrub bench formats`: how fast each recording format CloudScrub opens is
/// ingested, on the same synthetic frames written in every format in the same run.
///
/// For each format it measures decoding alone (every frame read, its JPEG decoded at
/// the depth size, its depth converted to metres, on every core, as `bench ingest`
/// does) beside the whole ingest, so that a format whose reader costs more than its
/// codecs shows as a high ratio; and it prints each layout's bytes on disk and the
/// points it gives, which must agree with `.csrec`'s within the depth quantisation.
struct FormatsBenchmark {
  /// One format under test: how to write it from any source and what the detector
  /// must recognise it as, so that a writer and a reader that disagree fail loudly.
  struct Layout {
    let name: String
    /// The file or folder name inside the benchmark's folder.
    let entry: String
    let format: any RecordingFormat.Type
    let write: (any RecordingSource, String) throws -> Void
  }

  let frameCount: Int
  let repeats: Int
  /// An empty folder the layouts are written into; the caller removes it.
  let folder: String

  /// Every format with a public writer. The Record3D EXR+JPG folder has a writer in
  /// the tests only, so it is left out.
  static var layouts: [Layout] {
    var layouts = [
      Layout(
        name: "CloudScrub .csrec", entry: "capture.csrec", format: CloudScrubRecordingFormat.self
      ) {
        source, path in
        let writer = try CloudScrubRecordingWriter(
          path: path,
          metadata: RecordingMetadata(
            appName: "CloudScrub bench", framesPerSecond: 30, depthSensor: .lidar))
        for index in 0..<source.frameCount {
          try writer.append(try source.frame(at: index), orientation: .landscapeRight)
        }
        try writer.finish()
      },
      Layout(name: "Record3D .r3d", entry: "capture.r3d", format: R3DFormat.self) {
        try R3DWriter().write($0, to: $1)
      },
      Layout(name: "3D Scanner App", entry: "scanner-app", format: ScannerAppFormat.self) {
        try ScannerAppWriter().write($0, to: $1)
      },
      Layout(name: "Polycam", entry: "polycam", format: PolycamFormat.self) {
        try PolycamWriter().write($0, to: $1)
      },
      Layout(name: "ARKitScenes", entry: "arkitscenes", format: ARKitScenesFormat.self) {
        try ARKitScenesWriter().write($0, to: $1)
      },
      Layout(name: "nerfstudio", entry: "nerfstudio", format: NerfstudioFormat.self) {
        try NerfstudioWriter().write($0, to: $1)
      },
    ]
    // Optional: Stray Scanner's writer was written alongside this benchmark; drop this
    // line should it go away. 30 frames a second, as the synthetic source records.
    layouts.append(
      Layout(name: "Stray Scanner", entry: "stray-scanner", format: StrayScannerFormat.self) {
        try StrayScannerWriter(framesPerSecond: 30).write($0, to: $1)
      })
    return layouts
  }

  func run() throws {
    let options = SyntheticRecordingOptions(
      frameCount: frameCount, colorWidth: 1920, colorHeight: 1440, depthNoiseMeters: 0.002)
    Terminal.out("CloudScrub ingest benchmark per recording format")
    Terminal.out(
      "\(frameCount) synthetic frames, depth \(options.depthWidth)×\(options.depthHeight), "
        + "colour \(options.colorWidth)×\(options.colorHeight) JPEG (quality 92); cores: "
        + "\(Parallel.cores), best of \(repeats) runs")
    let frames = try Self.render(options)

    var speed = BenchReport()
    speed.section("frames per second (best of \(repeats))")
    var layout = BenchReport()
    layout.section("layouts (points with the default filters)")
    var referencePoints: Int?
    for entry in Self.layouts {
      let path = (folder as NSString).appendingPathComponent(entry.entry)
      let written = try Stopwatch.best(runs: 1) { try entry.write(frames, path) }
      guard try InputDetector.kind(of: path) == .recording(format: entry.format.name) else {
        throw BenchError("\(entry.name): the detector does not see \(path) as \(entry.format.name)")
      }
      let source = try entry.format.open(path)
      let decodeOnly = try Stopwatch.best(runs: repeats) { try Self.decodeAll(source) }
      var points = 0
      let ingest = try Stopwatch.best(runs: repeats) {
        points = try RecordingLoader(source: source, decoder: TurboJPEGDecoder()).load().count
      }
      let count = Double(source.frameCount)
      speed.row(
        entry.name, "\(Int(count / ingest)) ingest",
        "\(Int(count / decodeOnly)) decode only  ingest \(PLYBenchmark.fixed(ingest / decodeOnly, 2))× "
          + "decode-only time")

      // The first layout, .csrec, stores depth exactly and is the reference; formats
      // storing 16-bit millimetres round it, which may move a few points across the
      // filters' thresholds, never 1 %.
      let reference = referencePoints ?? points
      referencePoints = reference
      let difference = Double(points - reference) / Double(max(reference, 1))
      layout.row(
        entry.name, "\(PLYBenchmark.megabytes(try Self.bytesOnDisk(path))) MB",
        "\(points) points (\(difference >= 0 ? "+" : "")\(PLYBenchmark.fixed(difference * 100, 2)) % "
          + "vs .csrec)  written in \(PLYBenchmark.seconds(written))",
        target: abs(difference) <= 0.01, goal: "within 1 % of .csrec")
    }
    Terminal.out(speed.text + layout.text)
  }

  /// Renders the synthetic recording once, on every core, with its colour as JPEG as
  /// capture apps store it: each writer then reads the same frames from memory
  /// instead of ray casting them again (which would dominate the writing time).
  static func render(_ options: SyntheticRecordingOptions) throws -> InMemoryRecording {
    let synthetic = SyntheticRecordingSource(options: options)
    let encoder = TurboJPEGEncoder(quality: 92)
    let slots = ParallelSlots<Result<CapturedFrame, any Error>?>(
      count: synthetic.frameCount, initial: nil)
    Parallel.perform(iterations: synthetic.frameCount) { index in
      slots[index] = Result<CapturedFrame, any Error> {
        var frame = try synthetic.frame(at: index)
        if case .rgb(let image) = frame.color { frame.color = .jpeg(try encoder.encode(image)) }
        return frame
      }
    }
    let frames = try (0..<synthetic.frameCount).map { index in
      guard let result = slots[index] else { throw BenchError("frame \(index) was not rendered") }
      return try result.get()
    }
    return InMemoryRecording(description: synthetic.description, frames: frames)
  }

  /// Reads every frame and decodes its images, on every core, without unprojecting.
  static func decodeAll(_ source: any RecordingSource) throws {
    let decoder = TurboJPEGDecoder()
    let failures = ParallelSlots<String?>(count: source.frameCount, initial: nil)
    Parallel.perform(iterations: source.frameCount) { index in
      do {
        let frame = try source.frame(at: index)
        if case .jpeg(let bytes) = frame.color {
          _ = try decoder.decodeJPEG(
            bytes, preferredWidth: frame.depth.width, preferredHeight: frame.depth.height)
        }
        _ = frame.depth.metersGrid()
      } catch {
        failures[index] = "frame \(index): \(error)"
      }
    }
    if let failure = (0..<source.frameCount).lazy.compactMap({ failures[$0] }).first {
      throw BenchError(failure)
    }
  }

  /// The bytes of a file, or of every file under a folder.
  static func bytesOnDisk(_ path: String) throws -> Int {
    let manager = FileManager.default
    var isFolder: ObjCBool = false
    guard manager.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
      return (try manager.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
    guard let names = manager.enumerator(atPath: path) else { return 0 }
    var total = 0
    for case let name as String in names {
      let attributes = try manager.attributesOfItem(
        atPath: (path as NSString).appendingPathComponent(name))
      if attributes[.type] as? FileAttributeType == .typeRegular {
        total += (attributes[.size] as? NSNumber)?.intValue ?? 0
      }
    }
    return total
  }
}

/// Frames held in memory, handed to the writers as a recording.
struct InMemoryRecording: RecordingSource {
  let description: RecordingDescription
  let frames: [CapturedFrame]

  var frameCount: Int { frames.count }

  func frame(at index: Int) throws -> CapturedFrame {
    guard frames.indices.contains(index) else {
      throw BenchError("frame \(index) out of range: the recording has \(frames.count) frames")
    }
    return frames[index]
  }
}
