import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

/// The fast decimal paths agree bit for bit with the C library's correctly rounded
/// `strtof` and `strtod`.
@Suite struct ASCIINumberParserTests {
  private func parseFloat(_ text: String) -> Float? {
    Array(text.utf8).withUnsafeBufferPointer {
      ASCIINumberParser.parseFloat($0.baseAddress.unsafelyUnwrapped, $0.count)
    }
  }

  private func parseDouble(_ text: String) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer {
      ASCIINumberParser.parseDouble($0.baseAddress.unsafelyUnwrapped, $0.count)
    }
  }

  private func parseInteger(_ text: String) -> Int64? {
    Array(text.utf8).withUnsafeBufferPointer {
      ASCIINumberParser.parseInteger($0.baseAddress.unsafelyUnwrapped, $0.count)
    }
  }

  @Test func randomDecimalsMatchStrtofAndStrtod() {
    var random = SplitMix64(seed: 2024)
    for _ in 0..<200_000 {
      let digits = Int(random.next() % 19) + 1
      var mantissa = ""
      for _ in 0..<digits { mantissa += String(random.next() % 10) }
      let point = Int(random.next() % UInt64(digits + 1))
      let exponent = Int(random.next() % 80) - 40
      var text = String(mantissa.prefix(point)) + "." + String(mantissa.dropFirst(point))
      if random.next() % 2 == 0 { text += "e\(exponent)" }
      if random.next() % 3 == 0 { text = "-" + text }
      #expect(parseFloat(text)?.bitPattern == strtof(text, nil).bitPattern, "\(text)")
      #expect(parseDouble(text)?.bitPattern == strtod(text, nil).bitPattern, "\(text)")
    }
  }

  @Test func halfwayBetweenTwoFloatsRoundsToEven() {
    var random = SplitMix64(seed: 5)
    for _ in 0..<20_000 {
      let f = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x7EFF_FFFF)
      guard f.isNormal else { continue }
      // The exact midpoint and its neighbours in double, printed so they read back exactly.
      let midpoint = (Double(f) + Double(f.nextUp)) / 2
      for value in [midpoint, midpoint.nextUp, midpoint.nextDown] {
        let text = String(format: "%.17g", value)
        #expect(parseFloat(text)?.bitPattern == strtof(text, nil).bitPattern, "\(text)")
      }
    }
  }

  @Test func shortestFloatTextReadsBackToTheSameBits() {
    var random = SplitMix64(seed: 9)
    for _ in 0..<100_000 {
      let f = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      guard f.isFinite else { continue }
      #expect(parseFloat(f.description)?.bitPattern == f.bitPattern, "\(f)")
    }
  }

  @Test func specialSpellings() {
    #expect(parseFloat("nan")?.isNaN == true)
    #expect(parseFloat("-inf") == -.infinity)
    #expect(parseFloat("1e39") == .infinity)
    #expect(parseFloat("-0")?.bitPattern == (-0.0 as Float).bitPattern)
    #expect(parseFloat(".5") == 0.5)
    #expect(parseFloat("5.") == 5)
    #expect(parseFloat("+3E+2") == 300)
    #expect(parseFloat("0x1p3") == 8)
    #expect(parseFloat("00000000000000000000000000001.5") == 1.5)
    #expect(parseFloat("1e-46") == 0)
    for bad in ["", "-", ".", "e5", "1e", "1e+", "1.5.5", "12a", "--1", "1..2", "abc"] {
      #expect(parseFloat(bad) == nil, "\(bad)")
      #expect(parseDouble(bad) == nil, "\(bad)")
    }
  }

  @Test func integers() {
    #expect(parseInteger("255") == 255)
    #expect(parseInteger("-128") == -128)
    #expect(parseInteger("+7") == 7)
    #expect(parseInteger("000") == 0)
    #expect(parseInteger("1e3") == 1000)
    #expect(parseInteger("2.50e1") == 25)
    #expect(parseInteger("4294967295") == 4_294_967_295)
    #expect(parseInteger("2.5") == nil)
    #expect(parseInteger("0x10") == nil)
    #expect(parseInteger("") == nil)
    #expect(parseInteger("99999999999999999999999") == nil)
  }
}
