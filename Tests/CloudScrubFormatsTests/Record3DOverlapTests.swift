import CloudScrubCore
import TestSupport
import Testing

@testable import CloudScrubFormats

/// The real capture lines up: frames half a second apart see the same desk, so with the
/// right pose and axis conventions many points of one land within a centimetre of the
/// other's (wrong conventions give under 5 %).
@Suite(.enabled(if: TestData.sharedData != nil))
struct Record3DOverlapTests {
  static func points(_ recording: Record3DEXRRecording, frame: Int) throws -> [Point3] {
    let options = UnprojectionOptions(flyingPixels: FlyingPixelFilter())
    return try Unprojector.unproject(
      recording.frame(at: frame), options: options, decoder: TurboJPEGDecoder()
    ).positions
  }

  @Test func framesZeroAndThirtyOverlapWithinOneCentimetre() throws {
    let folder = try #require(TestData.shared("record3d-exr-desk"))
    let recording = try Record3DEXRRecording(folder: folder)
    let first = try Self.points(recording, frame: 0)
    let later = try Self.points(recording, frame: 30)
    let fraction = NeighbourCounter(points: first, radius: 0.01).fractionWithNeighbour(later)
    #expect(first.count > 40_000)
    #expect(fraction >= 0.30, "only \(fraction) of frame 30 lies within 1 cm of frame 0")
  }

  @Test func wrongAxesWouldNotOverlap() throws {
    // The same check with the pose taken as OpenCV axes: the frames no longer agree,
    // which shows the test can tell right conventions from wrong ones.
    let folder = try #require(TestData.shared("record3d-exr-desk"))
    let recording = try Record3DEXRRecording(folder: folder)
    func wrong(_ index: Int) throws -> [Point3] {
      var frame = try recording.frame(at: index)
      frame.pose.axes = .openCV
      return try Unprojector.unproject(frame, decoder: TurboJPEGDecoder()).positions
    }
    let fraction = NeighbourCounter(points: try wrong(0), radius: 0.01)
      .fractionWithNeighbour(try wrong(30))
    #expect(fraction < 0.05, "\(fraction) overlap even with the wrong axes")
  }

  @Test func colourComesFromTheJPEGAtTheDepthPixel() throws {
    let folder = try #require(TestData.shared("record3d-exr-desk"))
    let recording = try Record3DEXRRecording(folder: folder)
    let frame = try recording.frame(at: 0)
    let points = try Unprojector.unproject(
      frame, options: UnprojectionOptions(flyingPixels: nil), decoder: TurboJPEGDecoder())
    // Not all grey: the colours vary across the desk scene.
    let distinct = Set(
      points.colors.map { Int($0.r) / 32 * 64 + Int($0.g) / 32 * 8 + Int($0.b) / 32 })
    #expect(distinct.count > 20)
    #expect(!points.colors.contains(FramePoints.noColor) || distinct.count > 1)
  }
}
