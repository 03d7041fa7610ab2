import COpenEXR
import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

@Suite struct EXRDepthReaderTests {
  let reader = EXRDepthReader()

  // MARK: - The real capture

  /// Frame 0 of the shared capture; values read independently with Python's OpenEXR
  /// 3.5.3 (`OpenEXR.File(path).channels()["R"].pixels`, a float16 array of 256 rows).
  @Test(.enabled(if: TestData.sharedData != nil))
  func realFirstFrameMatchesIndependentlyReadValues() throws {
    let path = try #require(TestData.shared("record3d-exr-desk/depth/0.exr"))
    let depth = try reader.readDepth(path: path)
    #expect(depth.width == 192 && depth.height == 256)
    #expect(depth.sampleType == .float32 && depth.encoding == .depthMeters)
    #expect(depth.bytesPerRow == 192 * 4 && depth.bytes.count == 192 * 256 * 4)
    let meters = depth.metersGrid()
    func at(_ x: Int, _ y: Int) -> Float { meters[y * 192 + x] }
    #expect(at(0, 0) == 1.8037109375)
    #expect(at(191, 0) == 0.3330078125)
    #expect(at(0, 255) == 0.22802734375)
    #expect(at(191, 255) == 0.2398681640625)
    #expect(at(96, 128) == 0.407470703125)
    #expect(at(50, 100) == 0.486572265625)
    #expect(at(150, 200) == 0.285400390625)
    #expect(meters.min() == 0.22802734375 && meters.max() == 2.021484375)
    #expect(meters.allSatisfy { (0.16...5.76).contains($0) })
    // Every half value is exact in Float32, so the sum is exact in Double.
    #expect(meters.reduce(0.0) { $0 + Double($1) } == 21692.03662109375)
  }

  // MARK: - Synthetic files

  @Test(arguments: [
    ("HALF ZIP", EXR_PIXEL_HALF, EXR_COMPRESSION_ZIP),
    ("HALF none", EXR_PIXEL_HALF, EXR_COMPRESSION_NONE),
    ("HALF PIZ", EXR_PIXEL_HALF, EXR_COMPRESSION_PIZ),
    ("HALF RLE", EXR_PIXEL_HALF, EXR_COMPRESSION_RLE),
    ("FLOAT ZIP", EXR_PIXEL_FLOAT, EXR_COMPRESSION_ZIP),
    ("FLOAT none", EXR_PIXEL_FLOAT, EXR_COMPRESSION_NONE),
    ("FLOAT ZIPS", EXR_PIXEL_FLOAT, EXR_COMPRESSION_ZIPS),
  ])
  func syntheticDepthRoundTrips(
    label: String, type: exr_pixel_type_t, compression: exr_compression_t
  ) throws {
    let (width, height) = (37, 41)  // not a multiple of any chunk height
    let values = (0..<width * height).map { Float(0.2 + Double($0 % 997) * 0.005) }
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("depth.exr").path
    try TestImages.writeEXR(
      path: path, width: width, height: height,
      channels: [TestImages.EXRChannel(name: "R", type: type, values: values)],
      compression: compression)
    let depth = try reader.readDepth(path: path)
    #expect(depth.width == width && depth.height == height)
    let expected = type == EXR_PIXEL_HALF ? values.map(TestImages.halfRounded) : values
    #expect(depth.metersGrid() == expected, "\(label)")
    // From memory, with no name for the bytes.
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(try bytes.withUnsafeBytes { try reader.readDepth(bytes: $0, path: "") } == depth)
  }

  @Test func namedChannelIsReadFromAMultiChannelFile() throws {
    let (width, height) = (8, 20)
    let depthValues = (0..<width * height).map { Float($0) / 16 + 0.5 }
    let other = [Float](repeating: 9, count: width * height)
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("multi.exr").path
    try TestImages.writeEXR(
      path: path, width: width, height: height,
      channels: [
        TestImages.EXRChannel(name: "B", type: EXR_PIXEL_HALF, values: other),
        TestImages.EXRChannel(name: "Z", type: EXR_PIXEL_FLOAT, values: depthValues),
        TestImages.EXRChannel(name: "G", type: EXR_PIXEL_HALF, values: other),
      ])
    #expect(try EXRDepthReader(channelName: "Z").readDepth(path: path).metersGrid() == depthValues)
    #expect(throws: EXRError(.missingChannel(name: "R", available: ["B", "G", "Z"]), path: path)) {
      try reader.readDepth(path: path)
    }
  }

  @Test func dataWindowAwayFromTheOriginIsReadWhole() throws {
    let (width, height) = (10, 40)
    let values = (0..<width * height).map { Float($0 % 50) / 8 + 0.25 }
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("offset.exr").path
    try TestImages.writeEXR(
      path: path, width: width, height: height,
      channels: [TestImages.EXRChannel(name: "R", type: EXR_PIXEL_FLOAT, values: values)],
      origin: (x: -3, y: 21))
    let depth = try reader.readDepth(path: path)
    #expect(depth.width == width && depth.height == height)
    #expect(depth.metersGrid() == values)
  }

  // MARK: - Bad input

  @Test(.enabled(if: TestData.sharedData != nil))
  func wrongChannelNameListsTheChannelsThatExist() throws {
    let path = try #require(TestData.shared("record3d-exr-desk/depth/0.exr"))
    let error = #expect(throws: EXRError.self) {
      try EXRDepthReader(channelName: "Z").readDepth(path: path)
    }
    #expect(error?.reason == .missingChannel(name: "Z", available: ["R"]))
    #expect(error?.description == "EXR has no channel 'Z' (channels: 'R'): \(path)")
  }

  @Test func textFileIsNotAnEXR() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("notes.exr").path
    try Data("depth in metres, honest\n".utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: EXRError.self) { try reader.readDepth(path: path) }
    #expect(error?.reason == .notEXR(byteCount: 24))
    #expect(error?.description.hasSuffix(": \(path)") == true)
    #expect(throws: EXRError(.notEXR(byteCount: 0), path: "empty")) {
      try reader.readDepth(bytes: UnsafeRawBufferPointer(start: nil, count: 0), path: "empty")
    }
  }

  @Test func tiledFileIsRefused() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("tiled.exr").path
    try TestImages.writeEXR(
      path: path, width: 32, height: 32,
      channels: [TestImages.EXRChannel(name: "R", type: EXR_PIXEL_HALF, values: [])],
      tiled: true)
    #expect(throws: EXRError(.unsupportedStorage("tiled"), path: path)) {
      try reader.readDepth(path: path)
    }
  }

  @Test func unsignedIntegerChannelIsRefused() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("uint.exr").path
    try TestImages.writeEXR(
      path: path, width: 4, height: 4,
      channels: [TestImages.EXRChannel(name: "R", type: EXR_PIXEL_UINT, values: [])],
      headerOnly: true)
    #expect(throws: EXRError(.unsupportedPixelType(channel: "R", type: "UINT"), path: path)) {
      try reader.readDepth(path: path)
    }
  }

  @Test func aDataWindowPastADepthMapsSizeIsRefusedBeforeAllocating() throws {
    // A header needs no pixels to claim a window: 5000 wide was read (and 2^28 pixels,
    // 1 GB of zeros, allocated for a few kilobytes) before depth's own limit applied.
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("wide.exr").path
    try TestImages.writeEXR(
      path: path, width: 5000, height: 2,
      channels: [TestImages.EXRChannel(name: "R", type: EXR_PIXEL_HALF, values: [])],
      headerOnly: true)
    let error = #expect(throws: EXRError.self) { try reader.readDepth(path: path) }
    #expect(
      error?.description
        == "EXR data window: depth map size 5000×2 is outside 1…4096 pixels a side: \(path)")
  }

  @Test func missingFileThrowsFileError() {
    #expect(throws: FileError.self) { try reader.readDepth(path: "/nonexistent/0.exr") }
  }

  @Test(.enabled(if: TestData.sharedData != nil))
  func everyTruncationOfARealFileThrowsWithoutCrashing() throws {
    let path = try #require(TestData.shared("record3d-exr-desk/depth/0.exr"))
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    // Inside the magic, the header, the offset table and each part of the pixel data.
    var lengths = [1, 3, 4, 5, 20, 100, 200, 300, 320, 340]
    lengths += stride(from: 400, to: bytes.count, by: max(1, bytes.count / 40)).map { $0 }
    lengths.append(bytes.count - 1)
    for length in lengths where length < bytes.count {
      let prefix = Array(bytes.prefix(length))
      #expect(throws: EXRError.self, "cut at \(length) of \(bytes.count) bytes") {
        try prefix.withUnsafeBytes { try reader.readDepth(bytes: $0, path: path) }
      }
    }
  }

  @Test(.enabled(if: TestData.sharedData != nil))
  func corruptedBytesThrowOrDecodeButNeverCrash() throws {
    let path = try #require(TestData.shared("record3d-exr-desk/depth/0.exr"))
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    var generator = SplitMix64(seed: 7)
    var failures = 0
    for _ in 0..<200 {
      var damaged = bytes
      for _ in 0..<4 {
        let offset = Int(generator.next() % UInt64(bytes.count))
        damaged[offset] = UInt8(truncatingIfNeeded: generator.next())
      }
      do {
        let depth = try damaged.withUnsafeBytes { try reader.readDepth(bytes: $0, path: path) }
        #expect(depth.isComplete)
      } catch is EXRError {
        failures += 1
      }
    }
    // Most damage lands in compressed pixel data, which zlib rejects.
    #expect(failures > 0)
  }
}

extension EXRDepthReaderTests {
  /// Damage to the header and the chunk offset table (the first 460 bytes of the real
  /// file) reaches the library's header parser and our size checks.
  @Test(.enabled(if: TestData.sharedData != nil))
  func damagedHeadersThrowTypedErrorsOrDecodeButNeverCrash() throws {
    let path = try #require(TestData.shared("record3d-exr-desk/depth/0.exr"))
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    var generator = SplitMix64(seed: 11)
    var outcomes = (decoded: 0, failed: 0)
    for _ in 0..<500 {
      var damaged = bytes
      for _ in 0..<2 {
        damaged[Int(generator.next() % 460)] = UInt8(truncatingIfNeeded: generator.next())
      }
      do {
        let depth = try damaged.withUnsafeBytes { try reader.readDepth(bytes: $0, path: path) }
        #expect(depth.isComplete)
        outcomes.decoded += 1
      } catch is EXRError {
        outcomes.failed += 1
      }
    }
    #expect(outcomes.decoded + outcomes.failed == 500 && outcomes.failed > 0)
  }
}
