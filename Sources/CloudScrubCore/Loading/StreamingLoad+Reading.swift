import Foundation

extension StreamingLoad {
  /// How many steps the progress of a cloud being read counts (`LoadStatus.loading`'s
  /// total while the file is read, each a hundredth of it).
  public static let readingSteps = 100

  /// Reads a point-cloud file whole, telling `progress` the fraction read.
  public typealias CloudReader =
    @Sendable (_ progress: @escaping @Sendable (Double) -> Void) throws -> PointCloud

  /// Starts reading a point-cloud file whole on a background thread: `read` reads it,
  /// telling the fraction read, which the load's status shows as `readingSteps` steps;
  /// then the cloud's frames (one, or its `frame` timeline's) are delivered at once. An
  /// error `read` throws fails the load with its description.
  ///
  /// - Parameter read: reads the file; called once, on the loading thread, with a
  ///   handler for the fraction read.
  public convenience init(reading read: @escaping CloudReader) {
    self.init(total: Self.readingSteps, ingestMergeMeters: nil)
    start { load in
      let cloud: PointCloud
      do {
        cloud = try read { fraction in
          let step = Int((min(max(fraction, 0), 1) * Double(Self.readingSteps)).rounded(.down))
          _ = load.deliver(nil, done: step, total: Self.readingSteps)
        }
      } catch {
        load.finish(.failed("\(error)"))
        return
      }
      let frames = CloudTimeline.frames(of: cloud)
      for frame in frames {
        guard load.deliver(frame, done: Self.readingSteps, total: Self.readingSteps) else {
          return load.finish(.cancelled)
        }
      }
      load.finish(.finished(frames: frames.count))
    }
  }
}
