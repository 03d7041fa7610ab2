import CloudScrubCore
import CloudScrubFormats

/// The pictures a side-by-side video shows beside its 3D view: each frame's colour image
/// reduced to the video's height, or its depth in false colour when it has no colour
/// (as the window's panel shows them). The last one is kept, as the playhead stays on
/// a frame for several video frames.
public final class VideoSideImages {
  private let source: any RecordingSource
  private let decoder = TurboJPEGDecoder()
  private var last: (frameIndex: Int, image: RGBImage?)?

  public init(source: any RecordingSource) {
    self.source = source
  }

  /// The colour image's width over its height (the depth map's when there is no
  /// colour), from the recording's description.
  public var aspect: Double? {
    let description = source.description
    if let width = description.colorWidth, let height = description.colorHeight, height > 0 {
      return Double(width) / Double(height)
    }
    guard description.depthHeight > 0 else { return nil }
    return Double(description.depthWidth) / Double(description.depthHeight)
  }

  /// Frame `frameIndex`'s picture, at most `width` pixels wide; nil when it cannot be
  /// read (the video shows black there rather than stopping).
  public func image(ofFrame frameIndex: Int, width: Int) -> RGBImage? {
    if let last, last.frameIndex == frameIndex { return last.image }
    let image: RGBImage? = try? {
      let preview = try FramePreview.make(
        from: try source.frame(at: frameIndex), frameIndex: frameIndex, decoder: decoder,
        maxColorWidth: max(1, width))
      return preview.color ?? preview.depth
    }()
    last = (frameIndex, image)
    return image
  }
}
