/// A point cloud whose points carry the frame they came from (a `frame` attribute, as
/// `export --attributes frame` writes), opened again as a timeline: one frame a
/// distinct value, in ascending order, so an exported capture can be scrubbed again.
public enum CloudTimeline {
  /// The nominal frame rate of a timeline without times: frame value n is at n / 30 s.
  public static let framesPerSecond = 30.0

  /// The frame values of `cloud`'s points, or nil when it has no `frame` attribute of
  /// whole numbers from 0 (then it is one frame).
  public static func frameValues(of cloud: PointCloud) -> [Int]? {
    guard let attribute = cloud.attribute(named: "frame"), attribute.values.count == cloud.count,
      cloud.count > 0
    else { return nil }
    var values = [Int](repeating: 0, count: cloud.count)
    for index in 0..<cloud.count {
      let value = attribute.values.double(at: index)
      guard value >= 0, value <= Double(Int32.max), value == value.rounded() else { return nil }
      values[index] = Int(value)
    }
    return values
  }

  /// The frames of `cloud`: for a cloud with frame values, its points grouped by value
  /// (ascending; points keep their file order within a frame), each frame indexed by
  /// its value and timed at value / `framesPerSecond`; otherwise the whole cloud as
  /// frame 0. Colours and confidence come along (unknown confidence without a
  /// `confidence` attribute), and intensity as grey levels (`IntensityGreys`), which
  /// are the colours too of a cloud with intensity and no colour.
  public static func frames(of cloud: PointCloud) -> [LoadedFrame] {
    let confidence = StreamingLoad.confidence(of: cloud)
    let levels = IntensityGreys.levels(of: cloud)
    let greys = cloud.colors == nil ? levels.map(IntensityGreys.colors(ofLevels:)) : nil
    let colors = cloud.colors ?? greys
    guard let values = frameValues(of: cloud) else {
      var points = FramePoints()
      points.positions = cloud.positions
      points.colors = colors ?? Array(repeating: FramePoints.noColor, count: cloud.count)
      points.confidence = confidence
      points.intensity = levels ?? []
      var frame = LoadedFrame(frameIndex: 0, timestampSeconds: 0, info: nil, points: points)
      frame.colorsFromIntensity = greys != nil
      return [frame]
    }
    // A stable counting sort by frame value.
    let distinct = Array(Set(values)).sorted()
    var slot: [Int: Int] = [:]
    for (position, value) in distinct.enumerated() { slot[value] = position }
    var groups = [FramePoints](repeating: FramePoints(), count: distinct.count)
    for index in 0..<cloud.count {
      guard let position = slot[values[index]] else { continue }
      groups[position].positions.append(cloud.positions[index])
      groups[position].colors.append(colors?[index] ?? FramePoints.noColor)
      groups[position].confidence.append(confidence[index])
      if let levels { groups[position].intensity.append(levels[index]) }
    }
    return zip(distinct, groups).map { value, points in
      var frame = LoadedFrame(
        frameIndex: value, timestampSeconds: Double(value) / framesPerSecond, info: nil,
        points: points)
      frame.colorsFromIntensity = greys != nil
      return frame
    }
  }
}
