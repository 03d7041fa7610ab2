import Foundation
import Testing

@testable import CloudScrubFormats

/// Decoding the reference encoder's streams (Fixtures/lzfse) and hand-built ones.
@Suite struct LZFSEDecoderTests {
  // MARK: - Reference vectors

  @Test(arguments: LZFSETestData.storedVectors)
  func referenceVectorDecodesToItsInput(name: String) throws {
    let decoded = try LZFSE.decode(try LZFSETestData.stream(name))
    let expected = try LZFSETestData.expected(name)
    #expect(decoded.count == expected.count)
    #expect(decoded == expected)
  }

  @Test func v1BlocksDecodeLikeTheirV2Originals() throws {
    let stream = try LZFSETestData.stream("text-64k-v1")
    #expect(Array(stream.prefix(4)) == Array("bvx1".utf8))
    #expect(try LZFSE.decode(stream) == (try LZFSETestData.expected("text-64k")))
  }

  @Test func multiMegabyteStreamOfTenBlocksDecodes() throws {
    let decoded = try LZFSE.decode(
      try LZFSETestData.stream("structured-6m"), expectedSize: 6 * 1024 * 1024 + 123)
    let expected = LZFSETestData.structured()
    #expect(decoded.count == expected.count)
    #expect(decoded == expected)
  }

  @Test func emptyStreamDecodesToNothing() throws {
    #expect(try LZFSE.decode(Array("bvx$".utf8)) == [])
    #expect(try LZFSE.decode(try LZFSETestData.stream("empty"), expectedSize: 0) == [])
  }

  @Test func unsafeBufferEntryPointMatchesArrayOne() throws {
    let stream = try LZFSETestData.stream("depth-256x192-f32")
    let decoded = try stream.withUnsafeBytes { try LZFSE.decode($0) }
    #expect(decoded == (try LZFSETestData.expected("depth-256x192-f32")))
  }

  @Test func bytesAfterTheEndOfStreamAreIgnored() throws {
    let stream = try LZFSETestData.stream("lzvn-words") + [1, 2, 3, 4, 5]
    #expect(try LZFSE.decode(stream) == (try LZFSETestData.expected("lzvn-words")))
  }

  // MARK: - Several blocks

  @Test func twoReferenceStreamsJoinedDecodeToTheConcatenation() throws {
    let joined =
      LZFSETestData.withoutEnd(try LZFSETestData.stream("text-64k"))
      + (try LZFSETestData.stream("depth-256x192-f32"))
    let expected =
      try LZFSETestData.expected("text-64k") + LZFSETestData.expected("depth-256x192-f32")
    #expect(try LZFSE.decode(joined, expectedSize: expected.count) == expected)
  }

  @Test func everyBlockKindInOneStreamDecodes() throws {
    let names = ["lzvn-words", "few-bytes", "text-64k-v1", "random-4k", "confidence-256x192-u8"]
    var joined: [UInt8] = []
    var expected: [UInt8] = []
    for name in names {
      joined += LZFSETestData.withoutEnd(try LZFSETestData.stream(name))
      expected += try LZFSETestData.expected(name == "text-64k-v1" ? "text-64k" : name)
    }
    joined += Array("bvx$".utf8)
    #expect(try LZFSE.decode(joined) == expected)
  }

  // MARK: - Sizes

  @Test func expectedSizeMismatchThrowsBeforeDecoding() throws {
    let stream = try LZFSETestData.stream("text-64k")
    #expect(throws: LZFSEError(.expectedSizeMismatch(expected: 65535, declared: 65536), at: 0)) {
      try LZFSE.decode(stream, expectedSize: 65535)
    }
    #expect(try LZFSE.decode(stream, expectedSize: 65536).count == 65536)
  }

  @Test func hugeDeclaredSizeIsRefusedWithoutAllocating() {
    // An uncompressed block claiming 4 GiB - 1 bytes with none present.
    let stream: [UInt8] = Array("bvx-".utf8) + [0xff, 0xff, 0xff, 0xff] + Array("bvx$".utf8)
    #expect(throws: LZFSEError.self) { try LZFSE.decode(stream) }
  }

  @Test func dTablesMatchTheFormat() {
    #expect(FSETables.dBaseValues.count == 64 && FSETables.dExtraBits.count == 64)
    #expect(Array(FSETables.dBaseValues.prefix(10)) == [0, 1, 2, 3, 4, 6, 8, 10, 12, 16])
    #expect(FSETables.dBaseValues[63] == 229_372 && FSETables.dExtraBits[63] == 15)
  }

  // MARK: - Hand-built LZVN

  /// One of each LZVN opcode kind: small, medium and large distance, previous
  /// distance, small and large literal, small and large match, nop, end of stream.
  @Test func handBuiltLZVNBlockWithEveryOpcodeKindDecodes() throws {
    var model = LZVNModel()
    var payload: [UInt8] = []
    payload += [0xe4] + Array("abcd".utf8)  // small literal, L 4
    model.literal("abcd")
    payload += [0x0e]  // nop
    payload += [0x40, 0x04] + Array("e".utf8)  // small distance: L 1, M 3, D 4
    model.literal("e")
    model.match(3, distance: 4)
    payload += [0x8e] + Array("fg".utf8)  // previous distance: L 2, M 4
    model.literal("fg")
    model.match(4, distance: 4)
    payload += [0xf5]  // small match: M 5, previous distance
    model.match(5, distance: 4)
    payload += [0xa1, 0x37, 0x00]  // medium distance: L 0, M 10, D 13
    model.match(10, distance: 13)
    payload += [0xcf, 0x14, 0x00] + Array("xyz".utf8)  // large distance: L 3, M 4, D 20
    model.literal("xyz")
    model.match(4, distance: 20)
    payload += [0xe0, 0x04] + Array("ABCDEFGHIJKLMNOPQRST".utf8)  // large literal, L 20
    model.literal("ABCDEFGHIJKLMNOPQRST")
    payload += [0x16]  // nop
    payload += [0xf0, 0x02]  // large match: M 18, previous distance
    model.match(18, distance: 20)
    payload += [0x06, 0, 0, 0, 0, 0, 0, 0]  // end of stream
    let stream = Self.lzvnBlock(raw: model.bytes.count, payload: payload) + Array("bvx$".utf8)
    #expect(try LZFSE.decode(stream) == model.bytes)
  }

  @Test func lzvnMatchBeforeAnyDistanceThrows() {
    let stream =
      Self.lzvnBlock(raw: 5, payload: [0xf5, 0x06, 0, 0, 0, 0, 0, 0, 0]) + Array("bvx$".utf8)
    #expect(throws: LZFSEError(.invalidMatchDistance(distance: 0, available: 0), at: 12)) {
      try LZFSE.decode(stream)
    }
  }

  @Test(arguments: [0x70, 0x7f, 0xd0, 0xdf, 0x1e, 0x3e] as [UInt8])
  func undefinedLZVNOpcodesThrow(opcode: UInt8) {
    let stream =
      Self.lzvnBlock(raw: 4, payload: [opcode, 0, 0, 0, 0x06, 0, 0, 0, 0, 0, 0, 0])
      + Array("bvx$".utf8)
    #expect(throws: LZFSEError(.undefinedOpcode(opcode), at: 12)) { try LZFSE.decode(stream) }
  }

  @Test func lzvnDistanceBeyondTheOutputThrows() {
    // Two literals, then a match 3 back.
    let payload: [UInt8] =
      [0x80 | 0x00 | 0x00, 0x03] + Array("ab".utf8) + [0x06, 0, 0, 0, 0, 0, 0, 0]
    let stream = Self.lzvnBlock(raw: 5, payload: payload) + Array("bvx$".utf8)
    #expect(throws: LZFSEError(.invalidMatchDistance(distance: 3, available: 2), at: 12)) {
      try LZFSE.decode(stream)
    }
  }

  static func lzvnBlock(raw: Int, payload: [UInt8]) -> [UInt8] {
    var block = Array("bvxn".utf8)
    withUnsafeBytes(of: UInt32(raw).littleEndian) { block += $0 }
    withUnsafeBytes(of: UInt32(payload.count).littleEndian) { block += $0 }
    return block + payload
  }
}

/// What an LZ stream should decode to, built one literal and match at a time.
struct LZVNModel {
  var bytes: [UInt8] = []

  mutating func literal(_ text: String) { bytes += Array(text.utf8) }

  mutating func match(_ length: Int, distance: Int) {
    for _ in 0..<length { bytes.append(bytes[bytes.count - distance]) }
  }
}
