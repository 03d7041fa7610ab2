import CloudScrubCore
import CloudScrubRender

/// How the window starts.
public struct ViewerOptions {
  public var widthPixels = 1280
  public var heightPixels = 800
  /// What to open at once; nil opens nothing (drop a file on the window).
  public var path: String?
  /// For benchmarks: print how long the first frame with points took to reach the
  /// screen, and close.
  public var exitAfterFirstFrame = false
  /// Who draws the points (`--renderer`); the panel can switch.
  public var renderer: PointRendererChoice = .auto
  /// Whether the window draws through a spatial level of detail (`--level-of-detail`);
  /// off draws by frames (`DrawPlan`) from the whole store.
  public var levelOfDetail = true
  /// What the cleaning panel starts with (`view --voxel 0.01` and the other cleaning
  /// options); exports use it until the panel changes it.
  public var cleaning = CleaningOptions()
  /// Bytes of GPU memory the level of detail's node cache may hold (`--gpu-cache`).
  public var gpuCacheBytes = LODNodeCache.defaultLimitBytes

  public init(
    widthPixels: Int = 1280, heightPixels: Int = 800, path: String? = nil,
    exitAfterFirstFrame: Bool = false,
    renderer: PointRendererChoice = .auto
  ) {
    self.widthPixels = widthPixels
    self.heightPixels = heightPixels
    self.path = path
    self.exitAfterFirstFrame = exitAfterFirstFrame
    self.renderer = renderer
  }
}
