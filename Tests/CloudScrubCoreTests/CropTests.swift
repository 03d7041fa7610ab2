import Foundation
import Testing

@testable import CloudScrubCore

struct CropTests {
  private func randomPositions(count: Int, seed: UInt64) -> [Point3] {
    var random = SplitMix64(seed: seed)
    // Coordinates on a 0.25 m grid in −2…2, so that many land exactly on the bounds.
    func coordinate() -> Float { Float(Int(random.next() % 17) - 8) * 0.25 }
    return (0..<count).map { _ in Point3(coordinate(), coordinate(), coordinate()) }
  }

  private func reference(_ p: Point3, box: CropBox?, band: ClosedRange<Float>?) -> Bool {
    var keep = true
    if let box {
      keep = keep && box.min.x <= p.x && p.x <= box.max.x
      keep = keep && box.min.y <= p.y && p.y <= box.max.y
      keep = keep && box.min.z <= p.z && p.z <= box.max.z
    }
    if let band { keep = keep && band.lowerBound <= p.y && p.y <= band.upperBound }
    return keep
  }

  @Test func maskMatchesBruteForce() {
    // Large enough to run on several cores.
    let positions = randomPositions(count: 300_000, seed: 3)
    let box = CropBox(min: Point3(-1, -0.5, -2), max: Point3(1.25, 1.5, 0))
    for (box, band) in [(box, nil), (nil, -0.25...0.75), (box, 0...2), (nil, nil)]
      as [(CropBox?, ClosedRange<Float>?)]
    {
      let mask = Crop.mask(positions, box: box, heightBandMeters: band)
      #expect(mask == positions.map { reference($0, box: box, band: band) })
      #expect(mask.contains(true))
    }
  }

  @Test func boundsAreInclusive() {
    let box = CropBox(min: Point3(0, 0, 0), max: Point3(1, 1, 1))
    let positions = [
      Point3(0, 0, 0), Point3(1, 1, 1), Point3(1, 0, 0.5), Point3(1.0001, 0.5, 0.5),
      Point3(0.5, -0.0001, 0.5), Point3(0.5, 0.5, 1.0001),
    ]
    #expect(
      Crop.mask(positions, box: box, heightBandMeters: nil)
        == [true, true, true, false, false, false])
    #expect(
      Crop.mask(positions, box: nil, heightBandMeters: 0...0)
        == [true, false, true, false, false, false])
  }

  @Test func heightBandLooksAtYOnly() {
    let positions = [Point3(100, 1.5, -100), Point3(0, 2.5, 0), Point3(0, 0.5, 0)]
    #expect(
      Crop.mask(positions, box: nil, heightBandMeters: 1...2) == [true, false, false])
  }

  @Test func nanPositionsAreDroppedByAnyFilter() {
    let positions = [Point3(.nan, 0.5, 0.5), Point3(0.5, .nan, 0.5), Point3(0.5, 0.5, 0.5)]
    let box = CropBox(min: Point3(0, 0, 0), max: Point3(1, 1, 1))
    #expect(Crop.mask(positions, box: box, heightBandMeters: nil) == [false, false, true])
    #expect(Crop.mask(positions, box: nil, heightBandMeters: 0...1) == [true, false, true])
    #expect(Crop.mask(positions, box: nil, heightBandMeters: nil) == [true, true, true])
  }

  @Test func emptyInputGivesAnEmptyMask() {
    #expect(Crop.mask([], box: nil, heightBandMeters: 0...1).isEmpty)
  }
}
