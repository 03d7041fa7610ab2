import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// The text writers' float formatter and the text readers' scanner: the same bytes as
/// Swift's `description`, bit-equal reading back of hard values, and errors on the right
/// line when the body is read in pieces on every core.
@Suite struct TextNumberTests {
  /// Values at the edges of what a float holds and of the decimal layout.
  static let hardFloats: [Float] = [
    0, -0.0, 1, -1, 0.1, -0.1, 0.2, 0.3, 1.0000001, 0.99999994, 1e-4, 9.9999e-5, 1e-5,
    16_777_216, 16_777_218, -16_777_220, 8_388_608.5, 123_456.79, 1e7, 1e10, 1e38, -1e38,
    3e38, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude,
    .leastNormalMagnitude.nextDown, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
    Float(bitPattern: 71362), Float(bitPattern: 11), Float(bitPattern: 1_784_060),
    Float(bitPattern: 0x0000_0FFF), 0.333_333_34, 2.718_281_7,
    3.141_592_7, 6.022e23, 299_792_448, 1.175_494_4e-38, Float(bitPattern: 3), Float(bitPattern: 5),
  ]

  static func text(_ value: Float) -> String {
    var bytes: [UInt8] = []
    FloatText.append(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func floatsAreWrittenAsDescriptionWritesThem() {
    for value in Self.hardFloats { #expect(Self.text(value) == value.description) }
    #expect(Self.text(.nan) == "nan")
    #expect(Self.text(-.infinity) == "-inf")
    #expect(Self.text(1e-5) == "1e-05")
    #expect(Self.text(16_777_218) == "1.6777218e+07")
    #expect(Self.text(0.00025) == "0.00025")
    #expect(Self.text(.leastNonzeroMagnitude) == "1e-45")
    // Every binade's first, second and last values, and a deterministic sample of bit
    // patterns.
    var mismatches: [UInt32] = []
    for exponent in UInt32(0)..<255 {
      for fraction in [UInt32(0), 1, 2, 0x40_0000, 0x7F_FFFE, 0x7F_FFFF] {
        let bits = exponent << 23 | fraction
        if Self.text(Float(bitPattern: bits)) != Float(bitPattern: bits).description {
          mismatches.append(bits)
        }
      }
    }
    var random = SplitMix64(seed: 16)
    for _ in 0..<200_000 {
      let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      if !value.isNaN && Self.text(value) != value.description {
        mismatches.append(value.bitPattern)
      }
    }
    #expect(mismatches.isEmpty, "bit patterns: \(mismatches.prefix(10))")
  }

  @Test func integersAreWrittenInDecimal() {
    for value in [0, 7, -7, 255, 16_711_808, Int(Int32.min), Int(Int64.max)] {
      var bytes: [UInt8] = []
      FloatText.append(integer: value, to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == String(value))
    }
  }

  @Test func hardFloatsReadBackBitEqualThroughXYZAndASCIIPCD() throws {
    let values = Self.hardFloats
    let count = values.count
    var cloud = PointCloud(
      positions: (0..<count).map {
        Point3(values[$0], values[(count - 1 - $0)], values[($0 * 7) % count])
      },
      normals: (0..<count).map { Point3(values[($0 * 3) % count], -values[$0], 0.5) })
    cloud.attributes = [
      PointAttribute(name: "value", values: .float32(values.map { -$0 })),
      PointAttribute(
        name: "wide", values: .float64(values.map { Double($0) * (1 + 0x1p-40) })),
    ]
    let options = CloudWriteOptions(ascii: true, attributes: .all)
    let provenance = ExportProvenance(source: "hard values")
    let pcd = try EncodedCloudFile.encode(
      cloud, as: PCDRecordEncoder.self, provenance: provenance, options: options)
    let fromPCD = try pcd.withUnsafeBytes { try PCDReader.read(bytes: $0).cloud }
    #expect(fromPCD.isBitwiseEqual(to: cloud))
    var flat = cloud
    flat.attributes = [cloud.attributes[0]]  // XYZ reads every column as float
    let xyz = try EncodedCloudFile.encode(
      flat, as: XYZRecordEncoder.self, provenance: provenance, options: options)
    let fromXYZ = try xyz.withUnsafeBytes { try XYZReader.read(bytes: $0).cloud }
    #expect(fromXYZ.isBitwiseEqual(to: flat))
  }

  @Test func scannerRoundsHardDecimalsOnceToFloat() throws {
    // Tokens and the float each denotes, worked out from the decimal: the halfway
    // point 1 + 2^-24 rounds to even (1), a hair above it rounds up.
    let cases: [(String, Float)] = [
      ("1e38", 1e38), ("-0", -0.0), ("-0.0e5", -0.0), ("+5", 5), (".5", 0.5), ("5.", 5),
      ("1E+2", 100), ("3.4028235e+38", .greatestFiniteMagnitude),
      ("1.17549435e-38", .leastNormalMagnitude), ("1e-45", .leastNonzeroMagnitude),
      ("1.401298464324817e-45", .leastNonzeroMagnitude), ("7e-46", 0),
      ("1.000000059604644775390625", 1),
      ("1.000000059604644775390626", Float(1).nextUp),
      ("0.1000000000000000055511151231257827021181583404541015625", 0.1),
      ("2.5e-39", Float(bitPattern: 1_784_060)),
    ]
    let text = cases.map { "\($0.0) 0 0" }.joined(separator: "\n")
    let cloud = try Array(text.utf8).withUnsafeBytes { try XYZReader.read(bytes: $0).cloud }
    for (index, (token, value)) in cases.enumerated() {
      #expect(cloud.positions[index].x.bitPattern == value.bitPattern, "\(token)")
      // The C library's correctly rounded strtof agrees.
      #expect(Float(token)?.bitPattern == value.bitPattern, "\(token)")
    }
  }

  /// A body of `lines` lines, several megabytes, so the readers cut it into pieces.
  static func manyLines(_ lines: Int, bad: Int? = nil, badToken: String = "oops") -> String {
    var text = ""
    text.reserveCapacity(lines * 40)
    for index in 0..<lines {
      if index % 1000 == 999 {
        text += "# note \(index)\r\n"
      } else if index % 777 == 0 {
        text += "   \n"
      } else {
        let y = index == bad ? badToken : String(Float(index) * 0.25)
        text += "\(Float(index) * 0.001) \(y) -\(index).5 \(index % 256)\r\n"
      }
    }
    return text
  }

  @Test func piecesOfALongBodyKeepLineNumbersAndOrder() throws {
    let lines = 120_000
    let text = Self.manyLines(lines)
    #expect(text.utf8.count > 3 << 20)  // three pieces at least
    let document = try Array(text.utf8).withUnsafeBytes { try XYZReader.read(bytes: $0) }
    let rows = (0..<lines).filter { $0 % 1000 != 999 && $0 % 777 != 0 }
    #expect(document.cloud.count == rows.count)
    #expect(document.comments.count == lines / 1000)
    #expect(document.comments.first == "note 999")
    #expect(document.comments.last == "note \(lines / 1000 * 1000 - 1)")
    for (point, line) in rows.enumerated() where point % 997 == 0 {
      #expect(
        document.cloud.positions[point]
          == Point3(Float(line) * 0.001, Float(line) * 0.25, -(Float(line) + 0.5)))
    }
    // A bad value deep in the body is named by its line (1-based) and column.
    let bad = 100_001
    let broken = Self.manyLines(lines, bad: bad)
    #expect(throws: XYZErrorReason.badNumber(line: bad + 1, column: 1, token: "oops")) {
      try Array(broken.utf8).withUnsafeBytes { try XYZReader.read(bytes: $0) }
    }
    let short = Self.manyLines(lines, bad: 90_001, badToken: "")
    #expect(throws: XYZErrorReason.columnCount(line: 90_002, expected: 4, got: 3)) {
      try Array(short.utf8).withUnsafeBytes { try XYZReader.read(bytes: $0) }
    }
  }

  @Test func asciiPCDInPiecesNamesTheLineAndField() throws {
    let lines = 120_000
    let rows = (0..<lines).filter { $0 % 1000 != 999 && $0 % 777 != 0 }.count
    let head =
      "VERSION 0.7\nFIELDS x y z label\nSIZE 4 4 4 1\nTYPE F F F U\nCOUNT 1 1 1 1\n"
      + "WIDTH \(rows)\nHEIGHT 1\nPOINTS \(rows)\nDATA ascii\n"
    let good = try Array((head + Self.manyLines(lines)).utf8).withUnsafeBytes {
      try PCDReader.read(bytes: $0).cloud
    }
    #expect(good.count == rows)
    #expect(good.positions[1] == Point3(0.002, 0.5, -2.5))
    let labels: [UInt8] = (0..<lines).filter { $0 % 1000 != 999 && $0 % 777 != 0 }.map {
      UInt8($0 % 256)
    }
    #expect(good.attribute(named: "label")?.values == .uint8(labels))
    let broken = head + Self.manyLines(lines, bad: 110_002, badToken: "1.5e")
    #expect(throws: PCDErrorReason.badNumber(line: 9 + 110_003, field: "y", token: "1.5e")) {
      try Array(broken.utf8).withUnsafeBytes { try PCDReader.read(bytes: $0) }
    }
    let tooFew = head.replacingOccurrences(of: "POINTS \(rows)", with: "POINTS \(rows + 1)")
      .replacingOccurrences(of: "WIDTH \(rows)", with: "WIDTH \(rows + 1)")
    #expect(throws: PCDErrorReason.missingLines(points: rows + 1, lines: rows)) {
      try Array((tooFew + Self.manyLines(lines)).utf8).withUnsafeBytes {
        try PCDReader.read(bytes: $0)
      }
    }
  }

  @Test func aWideFirstLineOverShortLinesIsNamedBeforeAllocatingForIt() throws {
    // 2 000 columns over 50 000 short lines would claim 100 million values; the file
    // holds 300 kB: the short line is named instead.
    let wide = (0..<2000).map { String($0) }.joined(separator: " ")
    let text = wide + "\n" + String(repeating: "1 2 3\n", count: 50_000)
    #expect(throws: XYZErrorReason.columnCount(line: 2, expected: 2000, got: 3)) {
      try Array(text.utf8).withUnsafeBytes { try XYZReader.read(bytes: $0) }
    }
  }

  @Test func aHugeTokenIsQuotedByItsFirstFortyCharacters() throws {
    // A "number" of a million digits and a word of a million letters: the message
    // quotes 40 characters and an ellipsis, not the megabyte.
    let digits = String(repeating: "9", count: 1_000_000)
    let quoted = String(repeating: "9", count: 40) + "…"
    #expect(throws: XYZErrorReason.badNumber(line: 2, column: 2, token: quoted)) {
      try Array("1 2 3\n1 2 \(digits)\n".utf8).withUnsafeBytes { try XYZReader.read(bytes: $0) }
    }
    let word = "é" + String(repeating: "x", count: 1_000_000)
    let head =
      "VERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\n"
      + "WIDTH 1\nHEIGHT 1\nPOINTS 1\nDATA ascii\n"
    let excerpt = "é" + String(repeating: "x", count: 39) + "…"
    #expect(throws: PCDErrorReason.badNumber(line: 10, field: "x", token: excerpt)) {
      try Array((head + word + " 1 2\n").utf8).withUnsafeBytes { try PCDReader.read(bytes: $0) }
    }
    // Short tokens are quoted whole.
    #expect(InputExcerpt.of(String(repeating: "x", count: 40)) == String(repeating: "x", count: 40))
  }
}
