import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore

/// A cancel reaches every long loop of the export's cleaning: each stage, run with a
/// stop that says yes from its k-th question on, ends with `CleaningCancelled` having
/// asked only a bounded number of questions after that one. Since every loop asks at
/// least once every few thousand items (the uninterrupted runs count the questions),
/// the work done after the stop is bounded too. No clock is involved.
@Suite struct ExportCancelTests {
  /// A scanned floor: 288 × 256 points 4 mm apart with a little height, colours and the
  /// attributes a recording's points carry. More than 2¹⁶ points, so the loops run on
  /// every core as they do for a capture.
  static let floor: PointCloud = {
    let columns = 288
    let rows = 256
    var positions: [Point3] = []
    var colors: [RGB8] = []
    var frames: [UInt32] = []
    for row in 0..<rows {
      for column in 0..<columns {
        let x = Float(column) * 0.004
        let z = Float(row) * 0.004
        // A gentle wave, so the normals and neighbourhoods are not all alike.
        let y = 0.01 * sin(x * 7) * cos(z * 5)
        positions.append(Point3(x, y, z))
        colors.append(RGB8(UInt8(column % 256), UInt8(row % 256), 128))
        frames.append(UInt32(row / 32))
      }
    }
    return PointCloud(
      positions: positions, colors: colors,
      attributes: [
        PointAttribute(name: "confidence", values: .uint8(positions.map { _ in 2 })),
        PointAttribute(name: "frame", values: .uint32(frames)),
      ])
  }()

  static var bound: Int { CountingStop.questionsAfterStopBound() }

  /// Questions asked by `body` when nothing stops it, at least `minimum` of them; then,
  /// for a stop at a few of those questions, that `body` says it stopped and asked at
  /// most `bound` questions after the stop.
  static func expectStops(
    minimumQuestions minimum: Int, _ body: (CountingStop) throws -> Bool
  ) rethrows {
    let free = CountingStop()
    #expect(try !body(free))
    #expect(free.asked >= minimum, "asked \(free.asked) times, fewer than \(minimum)")
    for k in Set([1, max(1, free.asked / 2), free.asked]).sorted() {
      let stop = CountingStop(stopsAt: k)
      #expect(try body(stop), "a stop at question \(k) of \(free.asked) was not seen")
      #expect(
        stop.askedAfterStop <= bound,
        "\(stop.askedAfterStop) questions after a stop at \(k) of \(free.asked)")
    }
  }

  /// Questions a loop over `count` items asks at least.
  static func questions(over count: Int) -> Int { count / StopChecks.interval }

  // MARK: - The loops, one by one

  @Test func theCropAsksEveryFewThousandPoints() {
    let cloud = Self.floor
    let box = CropBox(min: Point3(-1, -1, -1), max: Point3(0.5, 1, 0.5))
    let plain = Crop.mask(cloud.positions, box: box, heightBandMeters: nil)
    Self.expectStops(minimumQuestions: Self.questions(over: cloud.count)) { stop in
      let mask = Crop.mask(cloud.positions, box: box, heightBandMeters: nil, stop: stop.check)
      guard stop.saidStop else {
        #expect(mask == plain)
        return false
      }
      // Whatever was done, the stopped mask keeps nothing.
      #expect(!mask.contains(true))
      return true
    }
  }

  @Test func theStoresCloudAsksWhileItNumbersTheFrames() {
    // The floor as a recording's store: eight frames of 32 rows each, recording frames
    // 10, 12, … 24.
    var store = PointStore()
    let perFrame = Self.floor.count / 8
    for k in 0..<8 {
      var points = FramePoints()
      let range = (k * perFrame)..<((k + 1) * perFrame)
      points.positions = Array(Self.floor.positions[range])
      points.colors = Array((Self.floor.colors ?? [])[range])
      points.confidence = Array(repeating: 2, count: perFrame)
      store.append(points, frameIndex: 10 + 2 * k)
    }
    let plain = store.cloud()
    #expect(plain.count == Self.floor.count)
    guard case .uint32(let frames)? = plain.attribute(named: "frame")?.values else {
      Issue.record("no frame column")
      return
    }
    #expect(frames[0] == 10 && frames[perFrame - 1] == 10 && frames[perFrame] == 12)
    #expect(frames.last == 24)
    // Some points of frames 1–6 gathered alone are those points of the whole cloud.
    let shown = Array(stride(from: perFrame + 5, to: 7 * perFrame, by: 3))
    let gathered = store.cloud(of: shown, stop: nil)
    #expect(gathered?.isBitwiseEqual(to: plain.subset(indices: shown)) == true)
    Self.expectStops(minimumQuestions: Self.questions(over: shown.count)) { stop in
      let cloud = store.cloud(of: shown, stop: stop.check)
      guard stop.saidStop else { return false }
      #expect(cloud == nil)
      return true
    }
    Self.expectStops(minimumQuestions: Self.questions(over: store.count)) { stop in
      let cloud = store.cloud(stop: stop.check)
      guard stop.saidStop else {
        #expect(cloud?.isBitwiseEqual(to: plain) == true)
        return false
      }
      #expect(cloud == nil)
      return true
    }
  }

  @Test func theVoxelMergeAsksInEveryPass() {
    let cloud = Self.floor
    let plain = VoxelMerge.merge(cloud, voxelSizeMeters: 0.01)
    // The bounds, the two scatter passes, then each bucket.
    Self.expectStops(minimumQuestions: 3 * Self.questions(over: cloud.count)) { stop in
      let merged = VoxelMerge.merge(cloud, voxelSizeMeters: 0.01, stop: stop.check)
      guard stop.saidStop else {
        #expect(merged.isBitwiseEqual(to: plain))
        return false
      }
      #expect(merged.count == 0)
      return true
    }
  }

  @Test func theTreeBuildsAskInsideThem() {
    let positions = Self.floor.positions
    // Copying the points, boxing them, then each node of thousands of points.
    Self.expectStops(minimumQuestions: 2 * Self.questions(over: positions.count)) { stop in
      let tree = KDTree(positions, stop: stop.check)
      guard stop.saidStop else {
        #expect(tree.count == positions.count)
        #expect(tree.nearest(to: positions[1000], count: 1).first?.index == 1000)
        return false
      }
      return true
    }
    Self.expectStops(minimumQuestions: Self.questions(over: positions.count)) { stop in
      let tree = KDTree(mortonOrdering: positions, stop: stop.check)
      guard stop.saidStop else {
        #expect(tree.count == positions.count)
        return false
      }
      return true
    }
  }

  @Test func theNeighbourGridBuildAsksInsideIt() throws {
    let tree = KDTree(mortonOrdering: Self.floor.positions)
    #expect(NeighbourGrid(tree, neighbours: 8) != nil)
    // The bounds, each point's cell, then the scatter.
    Self.expectStops(minimumQuestions: 3 * Self.questions(over: tree.count)) { stop in
      let grid = NeighbourGrid(tree, neighbours: 8, stop: stop.check)
      guard stop.saidStop else {
        #expect(grid?.entries.count == tree.count)
        return false
      }
      #expect(grid == nil)
      return true
    }
  }

  @Test func gatheringTheKeptPointsAsksInEveryField() {
    let cloud = Self.floor
    let keep = cloud.positions.indices.map { $0 % 3 != 0 }
    let plain = cloud.subset(keeping: keep)
    // The indices, then positions, colours and two attributes.
    Self.expectStops(minimumQuestions: 4 * Self.questions(over: plain.count)) { stop in
      guard let subset = cloud.subset(keeping: keep, stop: stop.check) else {
        #expect(stop.saidStop)
        return true
      }
      #expect(subset.isBitwiseEqual(to: plain))
      return false
    }
  }

  // MARK: - The pipeline's steps

  /// Each step alone, stopped in its middle, throws `CleaningCancelled` naming it.
  @Test(arguments: [
    "crop", "voxel", "statistical outliers", "radius outliers", "normals",
  ])
  func eachStepStopsInsideItself(_ step: String) throws {
    var options = CleaningOptions()
    switch step {
    case "crop": options.heightBandMeters = -0.005...0.02
    case "voxel": options.voxelSizeMeters = 0.006
    case "statistical outliers": options.statistical = StatisticalOutlierOptions(neighbours: 8)
    case "radius outliers":
      options.radius = RadiusOutlierOptions(radiusMeters: 0.006, minNeighbours: 3)
    default: options.normalNeighbours = 8
    }
    let cloud = Self.floor
    let free = CountingStop()
    let plain = try CleaningPipeline.run(cloud, options: options)
    let watched = try CleaningPipeline.run(
      cloud, options: options, progress: CleaningProgress(shouldStop: free.check))
    #expect(watched.cloud.isBitwiseEqual(to: plain.cloud))
    #expect(free.asked >= 2 + Self.questions(over: cloud.count))
    // The first question comes before the step starts; from the second on, inside it.
    for k in Set([2, free.asked / 2, free.asked - 1, free.asked]).sorted() {
      let stop = CountingStop(stopsAt: k)
      let error = #expect(throws: CleaningCancelled.self) {
        try CleaningPipeline.run(
          cloud, options: options, progress: CleaningProgress(shouldStop: stop.check))
      }
      #expect(error == CleaningCancelled(step: step), "stopped at \(k) of \(free.asked)")
      #expect(
        stop.askedAfterStop <= CountingStop.questionsAfterStopBound(piecesPerCore: 64),
        "stopped at \(k) of \(free.asked)")
    }
  }

  /// The neighbour searches, counted in queries: after a stop, each core finishes at
  /// most the 1,024 queries it was in, and no chunk starts any.
  @Test func theNeighbourSearchesDoAFewThousandQueriesAfterAStop() throws {
    let positions = Self.floor.positions
    let tree = KDTree(mortonOrdering: positions)
    let grid = try #require(NeighbourGrid(tree, neighbours: 8))
    let median = KDTree(positions)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let bound = (cores + 1) * 1024
    for search in ["grid", "tree"] {
      let stop = CountingStop(stopsAt: 20)
      let queries = CountingStop()
      let afterStop = CountingStop()
      let counted: @Sendable () -> Void = {
        _ = queries.shouldStop()
        if stop.saidStop { _ = afterStop.shouldStop() }
      }
      if search == "grid" {
        grid.forEachNearestDistances(count: 8, stop: stop.check) { _, _ in counted() }
      } else {
        median.forEachNearest(count: 8, stop: stop.check) { _, _, _ in counted() }
      }
      #expect(stop.saidStop)
      #expect(queries.asked < positions.count, "\(search): every query ran")
      #expect(afterStop.asked <= bound, "\(search): \(afterStop.asked) queries after the stop")
    }
  }

  // MARK: - The streamed export's frame loop

  @Test func theStreamedFramesStopBeforeTheNextFrame() throws {
    let source = SyntheticRecordingSource(
      options: SyntheticRecordingOptions(
        frameCount: 12, depthWidth: 32, depthHeight: 24, colorWidth: 32, colorHeight: 24))
    let loader = RecordingLoader(source: source)
    let stop = CountingStop(stopsAt: 5)
    let framesAfterStop = CountingStop()
    let error = #expect(throws: CleaningCancelled.self) {
      try loader.streamFrames(stop: stop.check) { _, _, _ in
        if stop.saidStop { _ = framesAfterStop.shouldStop() }
      }
    }
    #expect(error == CleaningCancelled(step: "frames"))
    #expect(framesAfterStop.asked == 0)
    #expect(stop.asked == 5)
    // The voxel merge while streaming stops the same way, and at its end.
    let merging = CountingStop(stopsAt: 13)
    let merged = #expect(throws: CleaningCancelled.self) {
      try loader.voxelMerged(voxelSizeMeters: 0.01, stop: merging.check)
    }
    #expect(merged == CleaningCancelled(step: "voxel"))
  }
}
