import CloudScrubApp
import CloudScrubCore
import CloudScrubSession
import Foundation
import TestSupport
import Testing

@testable import CloudScrubCLI

/// The window's alignment errors: measured in the background once the load is done,
/// one value a loaded frame, the same as the alignment pass gives when run directly.
@Suite struct BackgroundAlignmentTests {
  @Test func theErrorsArriveAfterTheLoadAndMatchTheAlignmentPass() throws {
    let folder = try TestData.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("drift.csrec").path
    let synth = try CommandRunner.run(["synth", path, "--frames", "30", "--drift", "0.06,2"])
    #expect(synth.status == 0, "\(synth.standardError)")

    let document = try DocumentOpener().open(path)
    let provider = BackgroundAlignment()
    var content = ViewerContent()
    // Nothing is measured while the recording loads.
    if case .loading = document.load.status {
      #expect(provider.errors(for: document, content: content) == nil)
    }
    _ = content.absorb(try #require(document.load.takeUntilStopped(timeout: 300)))
    #expect(content.frameCount == 30)
    #expect(provider.progress == nil)
    // The first ask after the load starts the pass, which says how far it is.
    #expect(provider.errors(for: document, content: content) == nil)
    if let fraction = provider.progress { #expect((0...1).contains(fraction)) }
    #expect(provider.waitForPass(timeout: 300), "the alignment pass never ended")
    #expect(provider.progress == nil)
    let errors = try #require(provider.errors(for: document, content: content))

    let source = try #require(document.recording)
    let direct = try DriftAlignment.run(source, refine: false).errors
    #expect(errors == direct)
    #expect(errors.frameCount == 30)
    #expect(errors.residualMeters(at: 0) == nil)
    // A drift of 6 cm over the capture moves the frames: millimetres a frame at least.
    #expect((errors.worstMeters ?? 0) > 0.001)
  }
}
