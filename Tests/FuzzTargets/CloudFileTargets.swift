import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Targets for the point-cloud formats beside PLY: PCD (with liblzf for
/// `binary_compressed`), LAS and XYZ/CSV text, each also through the content detection
/// that picks it.
enum CloudFileTargets {
  static let all: [FuzzTarget] = [pcd, las, laz, xyz]

  /// Made afresh for each seed (a stored global would outlive the seed run, which
  /// LeakSanitizer reports when the binary exits after writing seeds).
  static func seedCloud() -> PointCloud {
    var cloud = SyntheticCloud.scene(count: 16, normals: true)
    cloud.attributes = [
      PointAttribute(name: "confidence", values: .uint8((0..<16).map { UInt8($0 % 3) })),
      PointAttribute(name: "frame", values: .uint32((0..<16).map { UInt32($0 / 4) })),
    ]
    return cloud
  }

  static func encode<E: CloudRecordEncoder>(_: E.Type, ascii: Bool = false) -> [UInt8]? {
    try? EncodedCloudFile.encode(
      seedCloud(), as: E.self, provenance: ExportProvenance(source: "seed"),
      options: CloudWriteOptions(ascii: ascii, attributes: .all))
  }

  /// A `binary_compressed` PCD of the seed cloud, laid out as PCL writes it.
  static func compressedPCD() -> [UInt8]? {
    guard let binary = encode(PCDRecordEncoder.self),
      let dataLine = String(decoding: binary, as: UTF8.self).range(of: "DATA binary\n")
    else { return nil }
    let headerText = String(decoding: binary, as: UTF8.self)[..<dataLine.lowerBound]
    let header = Array((headerText + "DATA binary_compressed\n").utf8)
    // Records are x y z rgb nx ny nz (4 bytes each), confidence (1), frame (4): 33
    // bytes; lay the fields out one after another.
    let sizes = [4, 4, 4, 4, 4, 4, 4, 1, 4]
    let recordSize = sizes.reduce(0, +)
    let records = Array(binary.suffix(seedCloud().count * recordSize))
    var planar: [UInt8] = []
    var offset = 0
    for size in sizes {
      for point in 0..<seedCloud().count {
        planar += records[(point * recordSize + offset)..<(point * recordSize + offset + size)]
      }
      offset += size
    }
    guard let compressed = LZF.compress(planar) else { return nil }
    var bytes = header
    bytes.appendLittleEndian32(UInt32(compressed.count))
    bytes.appendLittleEndian32(UInt32(planar.count))
    return bytes + compressed
  }

  static let pcd = FuzzTarget(
    name: "pcd", maxLength: 1 << 16,
    run: { bytes in
      _ = CloudFileFormats.format(of: Array(bytes.prefix(CloudFileFormats.prefixBytes)))
      _ = bytes.withUnsafeBytes { try? PCDReader.read(bytes: $0, lzf: LZF.pcdDecompressor) }
    },
    seeds: {
      [encode(PCDRecordEncoder.self), encode(PCDRecordEncoder.self, ascii: true), compressedPCD()]
        .compactMap { $0 }
    })

  static let las = FuzzTarget(
    name: "las", maxLength: 1 << 16,
    run: { bytes in _ = bytes.withUnsafeBytes { try? LASReader.read(bytes: $0) } },
    seeds: { [encode(LASRecordEncoder.self)].compactMap { $0 } })

  /// The seed cloud as the LAZ export writes it, and the same cut before its chunk
  /// table (read chunk after chunk).
  static func exportedLAZ() -> [[UInt8]] {
    let path = NSTemporaryDirectory() + "/cloudscrub-fuzz-seed-\(getpid()).laz"
    defer { unlink(path) }
    try? LAZFormatWriter().write(
      seedCloud(), provenance: ExportProvenance(source: "seed"),
      options: CloudWriteOptions(attributes: .all), to: path, inputs: [], progress: nil)
    guard let bytes = FileManager.default.contents(atPath: path).map(Array.init),
      bytes.count > 104
    else { return [] }
    let pointOffset = bytes[96..<100].reversed().reduce(0) { $0 << 8 | Int($1) }
    let table = bytes[pointOffset..<(pointOffset + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
    return [bytes, Array(bytes[0..<min(table, bytes.count)])]
  }

  /// LAZ: the LAS reader on compressed points, seeded with the LAZ test files of every
  /// point format (`Tests/CloudScrubFormatsTests/Fixtures/laz`) that fit its 2 KB and
  /// the LAZ export's. Inputs that small decode in a fraction of a millisecond; the
  /// larger fixtures (thousands of points) would hold it to about a hundred a second.
  static let lazMaxLength = 1 << 11
  static let laz = FuzzTarget(
    name: "laz", maxLength: lazMaxLength,
    run: { bytes in _ = bytes.withUnsafeBytes { try? LASReader.read(bytes: $0) } },
    seeds: {
      let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CloudScrubFormatsTests/Fixtures/laz").standardized.path
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      let files = names.filter { $0.hasSuffix(".laz") }.sorted().compactMap { name in
        FileManager.default.contents(atPath: folder + "/" + name).map { Array($0) }
      }
      return (files + exportedLAZ()).filter { $0.count <= lazMaxLength }
    })

  static let xyz = FuzzTarget(
    name: "xyz", maxLength: 1 << 14,
    run: { bytes in
      _ = XYZReader.looksLikeText(Array(bytes.prefix(4096)), isWholeFile: bytes.count < 4096)
      _ = bytes.withUnsafeBytes { try? XYZReader.read(bytes: $0) }
    },
    seeds: {
      [encode(XYZRecordEncoder.self), encode(CSVRecordEncoder.self)].compactMap { $0 }
        + [Array("X,Y,Z,Red,Green,Blue\n1,2,3,0.5,0.25,1\n4 5 6\t1 1 1\n".utf8)]
    })
}

extension Array where Element == UInt8 {
  fileprivate mutating func appendLittleEndian32(_ value: UInt32) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }
}
