import Testing

@testable import CloudScrubFormats

@Suite struct FormatsLibrariesTests {
  @Test func openEXRCoreIsLinked() {
    #expect(FormatsLibraries.openEXRVersion.hasPrefix("3."))
  }
}
