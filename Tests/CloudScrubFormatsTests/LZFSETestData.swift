import CloudScrubCore
import Foundation

/// The LZFSE test vectors in Fixtures/lzfse (made by scripts/make-lzfse-vectors.py
/// with Apple's reference encoder) and the generator of the one input too big to store.
enum LZFSETestData {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/lzfse")

  /// Vectors stored with their expected output (`NAME.lzfse` and `NAME.bin`).
  static let storedVectors = [
    "empty", "one-byte", "few-bytes", "lzvn-words", "lzvn-runs", "random-4k", "text-64k",
    "depth-256x192-f32", "confidence-256x192-u8",
  ]

  static func bytes(_ file: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
  }

  static func stream(_ name: String) throws -> [UInt8] { try bytes(name + ".lzfse") }
  static func expected(_ name: String) throws -> [UInt8] { try bytes(name + ".bin") }

  /// A stream without its end-of-stream block, ready to have another appended.
  static func withoutEnd(_ stream: [UInt8]) -> [UInt8] {
    precondition(Array(stream.suffix(4)) == Array("bvx$".utf8))
    return Array(stream.dropLast(4))
  }

  /// The input of `structured-6m.lzfse`: the Python script's `structured(42, 6 MiB + 123)`.
  static func structured(seed: UInt64 = 42, size: Int = 6 * 1024 * 1024 + 123) -> [UInt8] {
    // The test module's SplitMix64 is the same generator as the script's.
    var random = SplitMix64(seed: seed)
    var out: [UInt8] = []
    out.reserveCapacity(size + 4096)
    let words = [
      "depth", "confidence", "frame", "pose", "intrinsics", "point", "cloud", "scrub", "voxel",
      "normal", "the", "of", "and", "record3d", "lidar", "camera",
    ].map { Array($0.utf8) }
    while out.count < size {
      let r = random.next()
      let kind = r % 8
      if kind < 3 && out.count > 1024 {
        let distance = 1 + Int((r >> 8) % UInt64(min(out.count, 200_000)))
        let length = 16 + Int((r >> 32) % 2000)
        let start = out.count - distance
        for k in 0..<length { out.append(out[start + k]) }
      } else if kind == 3 {
        out.append(
          contentsOf: repeatElement(UInt8((r >> 8) & 0xff), count: 4 + Int((r >> 16) % 300)))
      } else if kind == 4 {
        let base = UInt32((r >> 8) & 0xffff)
        for k in 0..<UInt32(64) {
          withUnsafeBytes(of: (base + k).littleEndian) { out.append(contentsOf: $0) }
        }
      } else {
        for k in 0..<(1 + Int((r >> 8) % 12)) {
          out.append(contentsOf: words[Int((r >> UInt64(12 + 3 * k)) % 16)])
          out.append(0x20)
        }
        out.append(0x0a)
      }
    }
    return Array(out.prefix(size))
  }
}
