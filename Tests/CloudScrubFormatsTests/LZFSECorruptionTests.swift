import CloudScrubCore
import Foundation
import Testing

@testable import CloudScrubFormats

/// Truncated, damaged and malformed streams throw `LZFSEError`; none crashes or hangs.
@Suite struct LZFSECorruptionTests {
  // MARK: - Truncation

  @Test(arguments: ["lzvn-words", "lzvn-runs", "text-64k", "few-bytes", "confidence-256x192-u8"])
  func everyTruncationThrows(name: String) throws {
    let stream = try LZFSETestData.stream(name)
    for length in 0..<stream.count {
      #expect(throws: LZFSEError.self, "\(name) cut at \(length)") {
        try LZFSE.decode(Array(stream.prefix(length)))
      }
    }
  }

  @Test func truncationOfTheV1HeaderThrows() throws {
    let stream = try LZFSETestData.stream("text-64k-v1")
    for length in stride(from: 0, to: 800, by: 7) {
      #expect(throws: LZFSEError.self) { try LZFSE.decode(Array(stream.prefix(length))) }
    }
  }

  // MARK: - Random damage

  /// Each damaged stream either throws or decodes to something; with the size
  /// declared in the headers checked, what it decodes to has the original length
  /// unless a header was hit.
  @Test(arguments: [
    ("lzvn-words", 800), ("lzvn-runs", 400), ("confidence-256x192-u8", 400), ("text-64k", 800),
    ("text-64k-v1", 400), ("depth-256x192-f32", 200), ("random-4k", 100),
  ])
  func randomSingleByteDamageNeverCrashes(name: String, trials: Int) throws {
    let stream = try LZFSETestData.stream(name)
    var random = SplitMix64(seed: UInt64(stream.count))
    var thrown = 0
    for _ in 0..<trials {
      var damaged = stream
      let index = Int(random.next() % UInt64(stream.count))
      let value = UInt8(truncatingIfNeeded: random.next())
      damaged[index] = damaged[index] == value ? value ^ 0x5a : value
      do {
        _ = try LZFSE.decode(damaged)
      } catch is LZFSEError {
        thrown += 1
      }
    }
    // Damage in stored bytes (random-4k) decodes; in coded streams most of it throws.
    #expect(thrown <= trials)
  }

  // MARK: - Malformed headers

  @Test func unknownBlockMagicThrowsWithItsOffset() throws {
    let stream =
      LZFSETestData.withoutEnd(try LZFSETestData.stream("few-bytes")) + Array("bvxZ".utf8)
    #expect(throws: LZFSEError(.unknownBlockMagic(0x5a78_7662), at: 13)) {
      try LZFSE.decode(stream)
    }
  }

  @Test func missingEndOfStreamThrows() throws {
    let stream = LZFSETestData.withoutEnd(try LZFSETestData.stream("few-bytes"))
    #expect(throws: LZFSEError(.missingEndOfStream, at: 13)) { try LZFSE.decode(stream) }
    #expect(throws: LZFSEError(.missingEndOfStream, at: 0)) { try LZFSE.decode([UInt8]()) }
  }

  @Test func frequenciesNotSummingToTheStatesThrow() throws {
    var stream = try LZFSETestData.stream("text-64k-v1")
    // The first literal frequency (symbol 0) in the v1 header, a 16-bit field at 258.
    stream[258] &+= 1
    #expect(throws: LZFSEError.self) { try LZFSE.decode(stream) }
    do {
      _ = try LZFSE.decode(stream)
    } catch let error as LZFSEError {
      guard case .invalidFrequencyTable(let table, _, let states) = error.reason else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(table == "literal" && states == 1024 && error.byteOffset == 0)
    }
  }

  @Test func stateOutOfRangeThrows() throws {
    var stream = try LZFSETestData.stream("text-64k-v1")
    stream[44] = 64  // l_state, of 64 states
    stream[45] = 0
    #expect(throws: LZFSEError(.invalidHeader(field: "l_state", value: 64), at: 0)) {
      try LZFSE.decode(stream)
    }
  }

  @Test func tooManyMatchesThrows() throws {
    var stream = try LZFSETestData.stream("text-64k-v1")
    withUnsafeBytes(of: UInt32(10_001).littleEndian) { stream.replaceSubrange(16..<20, with: $0) }
    #expect(throws: LZFSEError(.invalidHeader(field: "n_matches", value: 10_001), at: 0)) {
      try LZFSE.decode(stream)
    }
  }

  @Test func rawSizeDisagreeingWithTheMatchesThrows() throws {
    var stream = try LZFSETestData.stream("text-64k-v1")
    stream[4] &-= 1  // n_raw_bytes one smaller than the matches produce
    #expect(throws: LZFSEError.self) { try LZFSE.decode(stream) }
  }

  @Test func errorDescriptionNamesTheProblemAndOffset() {
    let error = LZFSEError(.invalidMatchDistance(distance: 9, available: 4), at: 120)
    #expect(error.description == "LZFSE: match distance 9 with only 4 bytes decoded at byte 120")
  }
}
