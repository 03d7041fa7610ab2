import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// The bytes of a small recording, checked by hand against docs/recording-format.md.
@Suite struct RecordingFormatLayoutTests {
  private func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    bytes.withUnsafeBytes { $0.littleEndianUInt32(at: at) }
  }
  private func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
    bytes.withUnsafeBytes { $0.littleEndianUInt64(at: at) }
  }
  private func f64(_ bytes: [UInt8], _ at: Int) -> Double { Double(bitPattern: u64(bytes, at)) }
  private func text(_ bytes: [UInt8], _ at: Int, _ count: Int) -> String {
    String(decoding: bytes[at..<(at + count)], as: UTF8.self)
  }

  /// One 2×2 depth frame with a 3-byte "JPEG", as the document's worked example.
  private func smallFile() throws -> [UInt8] {
    let frame = CapturedFrame(
      timestampSeconds: 12.5,
      depth: DepthMap(width: 2, height: 2, meters: [1, 2, 3, 4]),
      color: .jpeg([0xFF, 0xD8, 0xFF]),
      intrinsics: CameraIntrinsics(fx: 100, fy: 101, cx: 1, cy: 1, width: 2, height: 2),
      pose: CameraPose(
        worldFromCamera: Transform3D(rowMajor: (0..<16).map(Double.init)), axes: .openGL))
    let path = try RecordingSamples.write(
      [frame], metadata: RecordingMetadata(appName: "A", framesPerSecond: 30, depthSensor: .lidar),
      orientations: [.portrait])
    return try RecordingSamples.bytes(path)
  }

  @Test func fileHeaderAndMetadataBytesMatchTheDocument() throws {
    let bytes = try smallFile()
    #expect(
      Array(bytes[0..<16])
        == [
          0x43, 0x53, 0x52, 0x45, 0x43, 0x0D, 0x0A, 0x1A, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
          0x00,
        ])
    // META chunk at 16: 16 fixed bytes + one entry (8 + "app" + "A") = 28 bytes, padded to 32.
    #expect(text(bytes, 16, 4) == "META")
    #expect(u32(bytes, 20) == CRC32.checksum(Array(bytes[32..<60])))
    #expect(u64(bytes, 24) == 28)
    #expect(f64(bytes, 32) == 30)
    #expect(Array(bytes[40..<44]) == [1, 0, 0, 0])
    #expect(u32(bytes, 44) == 1)
    #expect(u32(bytes, 48) == 3)
    #expect(u32(bytes, 52) == 1)
    #expect(text(bytes, 56, 4) == "appA")
    #expect(Array(bytes[60..<64]) == [0, 0, 0, 0])
  }

  @Test func frameIndexAndTrailerBytesMatchTheDocument() throws {
    let bytes = try smallFile()
    let chunk = 64
    let p = chunk + 16
    #expect(text(bytes, chunk, 4) == "FRAM")
    // Header 240, depth 8 + 16, JPEG 8 + 3 padded to 8.
    #expect(u64(bytes, chunk + 8) == 240 + 24 + 16)
    #expect(u32(bytes, chunk + 4) == CRC32.checksum(Array(bytes[p..<(p + 280)])))
    #expect(u32(bytes, p) == 240)
    #expect(u32(bytes, p + 4) == CRC32.checksum(Array(bytes[(p + 8)..<(p + 240)])))
    #expect(u32(bytes, p + 8) == 0)
    #expect(u32(bytes, p + 12) == 0)
    #expect(f64(bytes, p + 16) == 12.5)
    // Column-major: the first column of the row-major 0…15 matrix is 0, 4, 8, 12.
    #expect(
      (0..<16).map { f64(bytes, p + 24 + 8 * $0) }
        == [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15])
    #expect([152, 160, 168, 176].map { f64(bytes, p + $0) } == [100, 101, 1, 1])
    #expect([184, 188].map { u32(bytes, p + $0) } == [2, 2])
    // Axes OpenGL, portrait, float32, depth, no confidence, JPEG, range 0, reserved.
    #expect(Array(bytes[(p + 192)..<(p + 200)]) == [0, 1, 0, 0, 0, 1, 0, 0])
    #expect(
      stride(from: 200, to: 240, by: 4).map { u32(bytes, p + $0) } == [
        2, 2, 8, 0, 0, 0, 0, 0, 0, 0,
      ])
    #expect(u64(bytes, p + 240) == 16)
    #expect(Array(bytes[(p + 248)..<(p + 252)]) == [0x00, 0x00, 0x80, 0x3F])  // 1.0f
    #expect(u64(bytes, p + 264) == 3)
    #expect(Array(bytes[(p + 272)..<(p + 280)]) == [0xFF, 0xD8, 0xFF, 0, 0, 0, 0, 0])

    let index = p + 280
    #expect(text(bytes, index, 4) == "INDX")
    #expect(u64(bytes, index + 8) == 16)
    #expect(u64(bytes, index + 16) == 1)
    #expect(u64(bytes, index + 24) == UInt64(chunk))
    let trailer = index + 32
    #expect(bytes.count == trailer + 32)
    #expect(text(bytes, trailer, 4) == "TAIL")
    #expect(u32(bytes, trailer + 4) == CRC32.checksum(Array(bytes[(trailer + 16)...])))
    #expect(u64(bytes, trailer + 8) == 16)
    #expect(u64(bytes, trailer + 16) == UInt64(index))
    #expect(u64(bytes, trailer + 24) == 1)
  }

  @Test func crc32MatchesTheStandardCheckValueAndABytewiseLoop() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([UInt8]()) == 0)
    func bytewise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
      }
      return ~crc
    }
    let noise = RecordingSamples.noise(300, seed: 11)
    for start in 0..<9 {
      for end in stride(from: start, through: 300, by: 13) {
        let slice = noise[start..<end]
        #expect(slice.withUnsafeBytes { CRC32.checksum($0) } == bytewise(slice))
      }
    }
    var split = CRC32()
    noise[0..<101].withUnsafeBytes { split.update($0) }
    noise[101...].withUnsafeBytes { split.update($0) }
    #expect(split.value == bytewise(noise[...]))
  }

  @Test func jpegSizeIsReadFromItsStartOfFrame() {
    #expect(
      JPEGSize.read(RecordingSamples.jpeg(width: 1920, height: 1440)) ?? (0, 0) == (1920, 1440))
    #expect(JPEGSize.read(RecordingSamples.jpeg(width: 3, height: 65535)) ?? (0, 0) == (3, 65535))
    #expect(JPEGSize.read([0xFF, 0xD8, 0xFF]) == nil)
    #expect(JPEGSize.read([0xFF, 0xD8, 0xFF, 0xC0, 0x00]) == nil)
    #expect(JPEGSize.read([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x00]) == nil)
    #expect(JPEGSize.read(Array("not a jpeg".utf8)) == nil)
    for length in 0..<40 {
      _ = JPEGSize.read(Array(RecordingSamples.jpeg(width: 9, height: 9).prefix(length)))
    }
  }
}
