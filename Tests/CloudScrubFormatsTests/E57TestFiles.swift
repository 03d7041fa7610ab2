import Foundation

/// Hand-made E57 files for the reader's tests, built independently of the writer:
/// bit-by-bit CRC-32C, bit-by-bit packing, pages and sections laid out here.
enum E57TestFiles {
  /// CRC-32C, one bit at a time.
  static func crc32c(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
    return ~crc
  }

  /// `values` packed `bits` bits each, least significant bit first.
  static func pack(_ values: [UInt64], bits: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: (values.count * bits + 7) / 8)
    var bit = 0
    for value in values {
      for k in 0..<bits {
        if (value >> UInt64(k)) & 1 == 1 { out[bit / 8] |= 1 << UInt8(bit % 8) }
        bit += 1
      }
    }
    return out
  }

  static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// A data packet holding these byte-stream buffers, padded to a multiple of 4.
  static func dataPacket(_ streams: [[UInt8]]) -> [UInt8] {
    var body = streams.flatMap { littleEndian(UInt16($0.count)) } + streams.flatMap { $0 }
    let length = (6 + body.count + 3) / 4 * 4
    body += [UInt8](repeating: 0, count: length - 6 - body.count)
    return [1, 0] + littleEndian(UInt16(length - 1)) + littleEndian(UInt16(streams.count)) + body
  }

  static func physical(_ logical: Int) -> Int { logical / 1020 * 1024 + logical % 1020 }

  /// A file whose sections (each a list of packets) follow the header, then the XML that
  /// `xml` makes from the sections' physical offsets. `sectionLengthDelta` and
  /// `tamper` change the bytes for corrupt-file tests.
  static func file(
    sections: [[[UInt8]]], sectionLengthDelta: Int = 0,
    xml: ([Int]) -> String
  ) -> [UInt8] {
    var logical = [UInt8](repeating: 0, count: 48)
    var offsets: [Int] = []
    for packets in sections {
      let start = logical.count
      offsets.append(physical(start))
      let body = packets.flatMap { $0 }
      logical += [1, 0, 0, 0, 0, 0, 0, 0]
      logical += littleEndian(UInt64(32 + body.count + sectionLengthDelta))
      logical += littleEndian(UInt64(physical(start + 32)))
      logical += littleEndian(UInt64(0))
      logical += body
    }
    let xmlStart = logical.count
    let text = Array(xml(offsets).utf8)
    logical += text
    let pages = (logical.count + 1019) / 1020
    logical += [UInt8](repeating: 0, count: pages * 1020 - logical.count)
    var header = Array("ASTM-E57".utf8) + littleEndian(UInt32(1)) + littleEndian(UInt32(0))
    header += littleEndian(UInt64(pages * 1024)) + littleEndian(UInt64(physical(xmlStart)))
    header += littleEndian(UInt64(text.count)) + littleEndian(UInt64(1024))
    logical.replaceSubrange(0..<48, with: header)
    var out: [UInt8] = []
    for page in 0..<pages {
      let payload = logical[(page * 1020)..<(page * 1020 + 1020)]
      out += payload
      let crc = crc32c(payload)
      out += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> UInt32($0)) }
    }
    return out
  }

  /// An E57 XML document with the given `data3D` children.
  static func xml(scans: [String]) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <e57Root type="Structure" xmlns="http://www.astm.org/COMMIT/E57/2010-e57-v1.0">
      <formatName type="String"><![CDATA[ASTM E57 3D Imaging Data File]]></formatName>
      <guid type="String"><![CDATA[{test}]]></guid>
      <versionMajor type="Integer">1</versionMajor>
      <versionMinor type="Integer"/>
      <data3D type="Vector" allowHeterogeneousChildren="1">
    \(scans.joined(separator: "\n"))
      </data3D>
      <images2D type="Vector" allowHeterogeneousChildren="1"/>
    </e57Root>
    """
  }

  /// One scan's XML: `prototype` is the fields' elements.
  static func scan(
    offset: Int, count: Int, prototype: String, pose: String = "", extra: String = ""
  ) -> String {
    """
        <vectorChild type="Structure">
          <guid type="String"><![CDATA[{scan}]]></guid>
          <name type="String"><![CDATA[hand-made]]></name>
          \(pose)
          \(extra)
          <points type="CompressedVector" fileOffset="\(offset)" recordCount="\(count)">
            <prototype type="Structure">\(prototype)</prototype>
            <codecs type="Vector" allowHeterogeneousChildren="1"/>
          </points>
        </vectorChild>
    """
  }

  /// Writes `bytes` to a fresh temporary file.
  static func write(_ bytes: [UInt8], name: String = "test.e57") throws -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("cloudscrub-e57-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }
}
