import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// Random damage, with every checksum made to match again so that the parsers behind
/// the checksums see it, never crashes the reader: every failure is a typed error.
@Suite struct RecordingFormatFuzzTests {
  @Test func randomDamageWithMatchingChecksumsGivesTypedErrorsOnly() throws {
    let frames = [
      RecordingSamples.frame(index: 0, color: .yCbCrVideoPadded),
      RecordingSamples.frame(index: 1, color: .rgb),
      RecordingSamples.frame(index: 2, color: .bgraPadded),
    ]
    let original = try RecordingSamples.bytes(try RecordingSamples.write(frames))
    let offsets = try CloudScrubRecording(path: try RecordingSamples.file(original)).frameOffsets
    let indexOffset = original.withUnsafeBytes {
      Int($0.littleEndianUInt64(at: original.count - 16))
    }
    let path = try RecordingSamples.file(original)
    var random = SplitMix64(seed: 2024)
    var opened = 0
    var framesRead = 0
    var untyped: [String] = []
    let extremes: [UInt64] = [0, 1, 7, 0xFF, 0xFFFF_FFFF, 0x8000_0000_0000_0000, UInt64.max]
    for _ in 0..<600 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        let width = [1, 4, 8].randomElement(using: &random) ?? 1
        let value =
          Bool.random(using: &random)
          ? extremes.randomElement(using: &random) ?? 0 : random.next()
        for i in 0..<width where at + i < bytes.count {
          bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * i))
        }
      }
      if random.next() % 4 != 0 { reseal(&bytes, frames: offsets, index: indexOffset) }
      if random.next() % 3 == 0 {
        bytes.removeLast(Int.random(in: 0..<min(200, bytes.count), using: &random))
      }
      try RecordingSamples.overwrite(path, with: bytes)
      do {
        let recording = try CloudScrubRecording(path: path)
        opened += 1
        for i in 0..<recording.frameCount {
          for read in [{ _ = try recording.frame(at: i) }, { _ = try recording.frameInfo(at: i) }] {
            do {
              try read()
              framesRead += 1
            } catch is RecordingFileError {
            } catch {
              untyped.append("\(error)")
            }
          }
        }
      } catch is RecordingFileError {
      } catch {
        untyped.append("\(error)")
      }
    }
    #expect(untyped.isEmpty)
    // The damage must not have been so heavy that nothing was parsed.
    #expect(opened > 400)
    #expect(framesRead > 1500)
  }

  /// Makes every chunk's CRC-32 and each frame header's match the (damaged) bytes, at the
  /// undamaged file's chunk positions.
  private func reseal(_ bytes: inout [UInt8], frames: [Int], index: Int) {
    func length(_ chunk: Int) -> Int? {
      let stored = bytes.withUnsafeBytes { $0.littleEndianUInt64(at: chunk + 8) }
      return stored <= UInt64(bytes.count - chunk - 16) ? Int(stored) : nil
    }
    for frame in frames {
      let header = frame + 16
      let crc = CRC32.checksum(Array(bytes[(header + 8)..<(header + 240)]))
      bytes.storeLittleEndian(crc, at: header + 4)
    }
    for chunk in [16] + frames + [index, bytes.count - 32] {
      guard let length = length(chunk) else { continue }
      bytes.storeLittleEndian(
        CRC32.checksum(Array(bytes[(chunk + 16)..<(chunk + 16 + length)])), at: chunk + 4)
    }
  }
}
