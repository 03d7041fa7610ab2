import CloudScrubCore
import CloudScrubFormats
import Foundation

/// The E57 reader as a fuzz target. Each input is read twice: as it is (so damaged
/// pages must be refused by their checksum) and with every whole page's CRC-32C
/// recomputed first, so that mutations reach the header, XML and packet parsers instead
/// of stopping at the first page check.
enum E57Targets {
  static let all: [FuzzTarget] = [e57]

  static let e57 = FuzzTarget(
    name: "e57", maxLength: 1 << 16,
    run: { bytes in
      let path = Scratch.folder + "/input.e57"
      Scratch.write(bytes, to: path)
      _ = try? E57Reader.contents(of: path)
      let fixed = E57Checksums.recomputed(bytes)
      guard fixed != bytes else { return }
      Scratch.write(fixed, to: path)
      _ = try? E57Reader.contents(of: path)
    },
    seeds: {
      let scene = SyntheticCloud.scene(count: 150, normals: false)
      var framed = scene
      framed.attributes = [
        PointAttribute(name: "frame", values: .uint32((0..<scene.count).map { UInt32($0 % 2) }))
      ]
      var fields = SyntheticCloud.scene(count: 120, normals: true)
      fields.attributes = [
        PointAttribute(name: "confidence", values: .uint8((0..<120).map { UInt8($0 % 3) })),
        PointAttribute(name: "offset", values: .int16((0..<120).map { Int16($0) - 60 })),
      ]
      let turned = Transform3D(axisAngle: SIMD3(0, 0.5, 0), translation: SIMD3(1, 2, 3))
      let provenance = E57Provenance(
        software: "CloudScrub fuzz seed", description: "synthetic scene",
        entries: [.init(name: "source", value: "synthetic")])
      let writers: [(String, (URL) throws -> Void)] = [
        ("colour", { try E57Writer.write(cloud: scene, provenance: provenance, to: $0) }),
        (
          "plain",
          {
            try E57Writer.write(
              cloud: PointCloud(positions: scene.positions), provenance: provenance, to: $0)
          }
        ),
        ("fields", { try E57Writer.write(cloud: fields, provenance: provenance, to: $0) }),
        (
          "frames",
          {
            try E57Writer.write(
              scans: E57Scan.perFrame(framed) { $0 == 1 ? turned : .identity },
              provenance: provenance, to: $0)
          }
        ),
      ]
      return writers.compactMap { name, write in
        let url = URL(fileURLWithPath: Scratch.folder + "/seed-\(name).e57")
        guard (try? write(url)) != nil else { return nil }
        return Scratch.read(url.path)
      }
    })
}

/// CRC-32C of E57 pages, for the fuzz target to repair mutated inputs.
enum E57Checksums {
  /// `bytes` with the last 4 bytes of every whole 1024-byte page set to the big-endian
  /// CRC-32C of the page's first 1020 bytes.
  static func recomputed(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    var page = 0
    while (page + 1) * 1024 <= out.count {
      let start = page * 1024
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in out[start..<(start + 1020)] {
        crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
      }
      crc ^= 0xFFFF_FFFF
      for k in 0..<4 { out[start + 1020 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
      page += 1
    }
    return out
  }

  private static let table: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = (c & 1) != 0 ? 0x82F6_3B78 ^ (c >> 1) : c >> 1 }
    return c
  }
}
