import CEGL
import CloudScrubCore
import Foundation

/// An OpenGL 3.3 core context with no window and no X server: EGL on Mesa's
/// surfaceless platform (llvmpipe on a machine with no GPU), or on the first EGL
/// device or the default display where that is what the driver offers.
public final class EGLHeadlessContext {
  private let display: EGLDisplay
  private let context: EGLContext

  /// Creates the context and makes it current on this thread.
  ///
  /// - Throws: `RenderError` naming the EGL step that failed for each display tried.
  public init() throws {
    let shared = Self.shared
    shared.lock.lock()
    defer { shared.lock.unlock() }
    if let display = shared.display {
      self.display = display
      self.context = try Self.makeContext(on: display)
      return
    }
    let chosen = try Self.chooseDisplay()
    shared.display = chosen.display
    self.display = chosen.display
    self.context = chosen.context
  }

  /// Releases the context from this thread if it is current here, and destroys it.
  /// The display stays initialised for the process: EGL's initialisation is not
  /// counted, so terminating it here would pull it from under the contexts that
  /// other threads (other renders, tests running side by side) still hold.
  deinit {
    if eglGetCurrentContext() == context {
      eglMakeCurrent(display, nil, nil, nil)
    }
    eglDestroyContext(display, context)
  }

  /// The display every context in the process is made on, chosen and initialised
  /// once by the first context.
  private final class Shared: @unchecked Sendable {
    let lock = NSLock()
    var display: EGLDisplay?
  }
  private static let shared = Shared()

  /// The first display on which a context can be made, with that context.
  private static func chooseDisplay() throws -> (display: EGLDisplay, context: EGLContext) {
    var attempts: [String] = []
    for candidate in displays() {
      guard let display = candidate.display else {
        attempts.append("\(candidate.name): no display")
        continue
      }
      do {
        return (display, try makeContext(on: display))
      } catch {
        attempts.append("\(candidate.name): \(error)")
      }
    }
    throw RenderError("no headless OpenGL 3.3 context: \(attempts.joined(separator: "; "))")
  }

  private static func displays() -> [(name: String, display: EGLDisplay?)] {
    var result: [(String, EGLDisplay?)] = []
    result.append(
      ("surfaceless", eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)))
    if let query = eglGetProcAddress("eglQueryDevicesEXT") {
      typealias QueryDevices =
        @convention(c) (
          EGLint, UnsafeMutablePointer<EGLDeviceEXT?>?, UnsafeMutablePointer<EGLint>?
        ) -> EGLBoolean
      let queryDevices = unsafeBitCast(query, to: QueryDevices.self)
      var device: EGLDeviceEXT?
      var count: EGLint = 0
      if queryDevices(1, &device, &count) == EGL_TRUE, count > 0, let device {
        result.append(
          ("device", eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)))
      }
    }
    result.append(("default", eglGetDisplay(nil)))
    return result
  }

  private static func makeContext(on display: EGLDisplay) throws -> EGLContext {
    var major: EGLint = 0
    var minor: EGLint = 0
    guard eglInitialize(display, &major, &minor) == EGL_TRUE else {
      throw RenderError("eglInitialize failed")
    }
    guard eglBindAPI(EGLenum(EGL_OPENGL_API)) == EGL_TRUE else {
      throw RenderError("no desktop OpenGL in EGL")
    }
    let configAttributes: [EGLint] = [
      EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE,
    ]
    var config: EGLConfig?
    var count: EGLint = 0
    guard eglChooseConfig(display, configAttributes, &config, 1, &count) == EGL_TRUE, count > 0
    else {
      throw RenderError("no EGL config for OpenGL")
    }
    let contextAttributes: [EGLint] = [
      EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
    ]
    guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
      throw RenderError("eglCreateContext failed (error 0x\(String(eglGetError(), radix: 16)))")
    }
    guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
      eglDestroyContext(display, context)
      throw RenderError(
        "eglMakeCurrent with no surface failed (error 0x\(String(eglGetError(), radix: 16)))")
    }
    return context
  }
}
