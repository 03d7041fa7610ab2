/// Who draws the points: OpenGL (`GL_POINTS` from the GPU mirror) or the CPU point
/// rasterizer (straight from the CPU store). Overlays, eye-dome lighting and the
/// composite are OpenGL's either way.
public enum PointRenderer: String, Sendable, CaseIterable {
  case gl
  case cpu

  /// How the window and `render` name it.
  public var label: String { self == .gl ? "OpenGL" : "CPU" }

  /// The point drawer that draws for this renderer, to set as a backend's
  /// `pointDrawer`: the one place that branches on who draws the points.
  public func makeDrawer() -> any PointDrawer {
    switch self {
    case .gl: return GPUPointDrawer()
    case .cpu: return CPUPointDrawer()
    }
  }
}

/// The renderer the user asked for: one of the two, or `auto`, which takes the CPU
/// when OpenGL is a software renderer (Mesa's llvmpipe, softpipe or swrast, where the
/// CPU rasterizer draws points many times faster) and OpenGL otherwise.
public enum PointRendererChoice: String, Sendable, CaseIterable {
  case auto
  case gl
  case cpu

  /// The renderer this choice means on an OpenGL implementation whose `GL_RENDERER`
  /// string is `glRenderer`.
  public func resolved(glRenderer: String) -> PointRenderer {
    switch self {
    case .gl: return .gl
    case .cpu: return .cpu
    case .auto: return Self.isSoftware(glRenderer: glRenderer) ? .cpu : .gl
    }
  }

  /// Whether `GL_RENDERER` names one of Mesa's software rasterizers.
  public static func isSoftware(glRenderer: String) -> Bool {
    let name = glRenderer.lowercased()
    return ["llvmpipe", "softpipe", "swrast"].contains { name.contains($0) }
  }
}
