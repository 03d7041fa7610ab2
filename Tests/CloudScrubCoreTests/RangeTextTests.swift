import Testing

@testable import CloudScrubCore

/// `MIN-MAX` and `MIN,MAX` with every sign combination.
@Suite struct RangeTextTests {
  @Test(arguments: [
    ("1-3", 1.0, 3.0),
    ("-1-3", -1, 3),
    ("-1.5-0.8", -1.5, 0.8),
    ("-1--0.5", -1, -0.5),
    ("1--0.5", 1, -0.5),
    ("0.25-0.5", 0.25, 0.5),
    ("-1,3", -1, 3),
    ("1,3", 1, 3),
    ("-1,-0.5", -1, -0.5),
    ("1,-2", 1, -2),
    (" -2 , 4 ", -2, 4),
    ("1e-3-2", 0.001, 2),
    ("-1e-3--2e-1", -0.001, -0.2),
    ("-2.-3.", -2, 3),
    ("0-inf", 0, .infinity),
  ])
  func readsBothNumbersWithTheirSigns(text: String, lower: Double, upper: Double) throws {
    let range = try #require(RangeText.parse(text, as: { Double($0) }))
    #expect(range.lower == lower && range.upper == upper)
  }

  @Test(arguments: ["", "1", "-1", "--1", "1-", "-", "1,2,3", "a-b", "1-2-3", ",", "1,"])
  func rejectsWhatIsNoRangeOfTwoNumbers(text: String) {
    #expect(RangeText.parse(text, as: { Double($0) }) == nil)
  }

  @Test func integersRejectFractions() {
    #expect(RangeText.parse("10-20", as: { Int($0) })! == (10, 20))
    #expect(RangeText.parse("1.5-2", as: { Int($0) }) == nil)
    #expect(RangeText.parse("-3-2", as: { Int($0) })! == (-3, 2))
  }
}
