import CTurboJPEG
import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Decode times over the real 240-frame capture, printed for a release build:
/// `CLOUDSCRUB_TIMING=1 swift test -c release --filter DecodeTimingTests`.
/// Off otherwise (debug times say nothing).
@Suite(
  .enabled(
    if: TestData.sharedData != nil
      && ProcessInfo.processInfo.environment["CLOUDSCRUB_TIMING"] != nil),
  .serialized)
struct DecodeTimingTests {
  let folder: String
  let recording: Record3DEXRRecording

  init() throws {
    folder = try #require(TestData.shared("record3d-exr-desk"))
    recording = try Record3DEXRRecording(folder: folder)
  }

  /// Seconds `body` takes, best of `runs`.
  private func seconds(runs: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      try body()
      best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
  }

  private func report(_ what: String, _ total: Double, frames: Int) {
    let perFrame = total / Double(frames) * 1000
    print(
      String(
        format: "timing: %@: %.1f ms for %d frames, %.3f ms a frame", what, total * 1000, frames,
        perFrame))
  }

  @Test func depthDecodeTime() throws {
    let count = recording.frameCount
    let paths = (0..<count).map { Record3DEXRRecording.depthPath(folder: folder, frame: $0) }
    let reader = EXRDepthReader()
    report(
      "EXR depth from files",
      try seconds { for path in paths { _ = try reader.readDepth(path: path) } }, frames: count)
    let files = try paths.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
    report(
      "EXR depth from memory",
      try seconds {
        for bytes in files {
          _ = try bytes.withUnsafeBytes { try reader.readDepth(bytes: $0, path: "") }
        }
      }, frames: count)
    let twoThreads = seconds {
      DispatchQueue.concurrentPerform(iterations: count) { index in
        _ = try? files[index].withUnsafeBytes { try reader.readDepth(bytes: $0, path: "") }
      }
    }
    report("EXR depth from memory, all cores", twoThreads, frames: count)
  }

  @Test func colorDecodeTime() throws {
    let count = recording.frameCount
    let files = try (0..<count).map {
      try [UInt8](
        Data(
          contentsOf: URL(
            fileURLWithPath: Record3DEXRRecording.colorPath(folder: folder, frame: $0))))
    }
    let decoder = TurboJPEGDecoder()
    for scale in [JPEGScale.quarter, .eighth, .half, .full] {
      report(
        "JPEG 1440×1920 at \(scale)",
        try seconds(runs: scale == .full ? 1 : 3) {
          for bytes in files { _ = try decoder.decodeJPEG(bytes, scale: scale) }
        }, frames: count)
    }
    report(
      "JPEG preferred 192×256 (chooses 1/4)",
      try seconds {
        for bytes in files {
          _ = try decoder.decodeJPEG(bytes, preferredWidth: 192, preferredHeight: 256)
        }
      }, frames: count)
    let twoThreads = seconds {
      DispatchQueue.concurrentPerform(iterations: count) { index in
        _ = try? decoder.decodeJPEG(files[index], preferredWidth: 192, preferredHeight: 256)
      }
    }
    report("JPEG at 1/4, all cores", twoThreads, frames: count)
    let handles = 10_000
    let handleTime = seconds { for _ in 0..<handles { tjDestroy(tjInitDecompress()) } }
    print(
      String(
        format: "timing: tjInitDecompress + tjDestroy: %.2f µs each",
        handleTime / Double(handles) * 1e6))
  }

  @Test func wholeFrameReadTime() throws {
    let count = recording.frameCount
    report(
      "frame(at:) (EXR decode + JPEG bytes)",
      try seconds { for index in 0..<count { _ = try recording.frame(at: index) } }, frames: count)
    report(
      "frameInfo(at:)",
      try seconds { for index in 0..<count { _ = try recording.frameInfo(at: index) } },
      frames: count)
  }
}
