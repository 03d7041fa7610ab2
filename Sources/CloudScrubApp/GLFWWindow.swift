import CGLFW
import CloudScrubCore

/// A raw input event from the window, before it becomes a command.
enum WindowEvent {
  case key(ViewerKey, shift: Bool)
  case mouseDown(ViewerMouseButton, SIMD2<Float>, shift: Bool)
  case mouseUp(ViewerMouseButton)
  case cursor(SIMD2<Float>)
  case scroll(Float, SIMD2<Float>)
  case drop([String])
  case undo
  case redo
}

/// A GLFW window with an OpenGL 3.3 core context, whose callbacks queue events.
final class GLFWWindow {
  let handle: OpaquePointer
  private(set) var events: [WindowEvent] = []
  /// Where the cursor was at the last motion event. Button and wheel events take their
  /// position from here, not from glfwGetCursorPos, which tells where the pointer is
  /// now: when frames are slow a press and the moves after it arrive in one batch,
  /// and the drag must start where the press was.
  private var lastCursor: SIMD2<Float>?

  /// - Throws: `ViewerError` when GLFW cannot start or make the window.
  init(width: Int, height: Int, title: String) throws {
    guard glfwInit() == GLFW_TRUE else {
      throw ViewerError("GLFW could not start (is there a display?)\(Self.lastError())")
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
    guard let window = glfwCreateWindow(Int32(width), Int32(height), title, nil, nil) else {
      let reason = Self.lastError()
      glfwTerminate()
      throw ViewerError("GLFW could not open an OpenGL 3.3 core window\(reason)")
    }
    handle = window
    glfwMakeContextCurrent(window)
    glfwSwapInterval(1)
    glfwSetWindowUserPointer(window, Unmanaged.passUnretained(self).toOpaque())
    installCallbacks()
  }

  /// GLFW's own words for its last error, as ": TEXT", or "" when it has none.
  private static func lastError() -> String {
    var description: UnsafePointer<CChar>?
    guard glfwGetError(&description) != GLFW_NO_ERROR, let description else { return "" }
    return ": " + String(cString: description)
  }

  deinit {
    glfwDestroyWindow(handle)
    glfwTerminate()
  }

  var shouldClose: Bool { glfwWindowShouldClose(handle) != 0 }

  /// The framebuffer size in pixels (what GL draws into).
  var framebufferSize: (width: Int, height: Int) {
    var w: Int32 = 0
    var h: Int32 = 0
    glfwGetFramebufferSize(handle, &w, &h)
    return (Int(w), Int(h))
  }

  /// Framebuffer pixels per window coordinate (cursor positions are in the latter).
  var pixelScale: Float {
    var w: Int32 = 0
    var h: Int32 = 0
    glfwGetWindowSize(handle, &w, &h)
    return w > 0 ? Float(framebufferSize.width) / Float(w) : 1
  }

  func setTitle(_ title: String) { glfwSetWindowTitle(handle, title) }

  /// Waits up to `seconds` for events (0: just polls) and returns those queued.
  func pollEvents(waitingUpTo seconds: Double) -> [WindowEvent] {
    if seconds > 0 { glfwWaitEventsTimeout(seconds) } else { glfwPollEvents() }
    defer { events = [] }
    return events
  }

  func swapBuffers() { glfwSwapBuffers(handle) }

  fileprivate func queue(_ event: WindowEvent) { events.append(event) }

  fileprivate func cursorPosition() -> SIMD2<Float> {
    if let lastCursor { return lastCursor }
    var x = 0.0
    var y = 0.0
    glfwGetCursorPos(handle, &x, &y)
    return SIMD2(Float(x), Float(y)) * pixelScale
  }

  private static func owner(_ window: OpaquePointer?) -> GLFWWindow? {
    guard let window, let pointer = glfwGetWindowUserPointer(window) else { return nil }
    return Unmanaged<GLFWWindow>.fromOpaque(pointer).takeUnretainedValue()
  }

  private func installCallbacks() {
    glfwSetKeyCallback(handle) { window, key, _, action, mods in
      guard action == GLFW_PRESS || action == GLFW_REPEAT else { return }
      if mods & GLFW_MOD_CONTROL != 0 {
        if key == GLFW_KEY_Z {
          GLFWWindow.owner(window)?.queue(mods & GLFW_MOD_SHIFT != 0 ? .redo : .undo)
        }
        if key == GLFW_KEY_Y { GLFWWindow.owner(window)?.queue(.redo) }
        return
      }
      guard let key = GLFWWindow.viewerKey(key) else { return }
      GLFWWindow.owner(window)?.queue(.key(key, shift: mods & GLFW_MOD_SHIFT != 0))
    }
    glfwSetMouseButtonCallback(handle) { window, button, action, mods in
      guard let owner = GLFWWindow.owner(window) else { return }
      let mapped: ViewerMouseButton
      switch button {
      case GLFW_MOUSE_BUTTON_LEFT: mapped = .left
      case GLFW_MOUSE_BUTTON_RIGHT: mapped = .right
      case GLFW_MOUSE_BUTTON_MIDDLE: mapped = .middle
      default: return
      }
      if action == GLFW_PRESS {
        owner.queue(.mouseDown(mapped, owner.cursorPosition(), shift: mods & GLFW_MOD_SHIFT != 0))
      } else if action == GLFW_RELEASE {
        owner.queue(.mouseUp(mapped))
      }
    }
    glfwSetCursorPosCallback(handle) { window, x, y in
      guard let owner = GLFWWindow.owner(window) else { return }
      let position = SIMD2(Float(x), Float(y)) * owner.pixelScale
      owner.lastCursor = position
      owner.queue(.cursor(position))
    }
    glfwSetScrollCallback(handle) { window, _, dy in
      guard let owner = GLFWWindow.owner(window) else { return }
      owner.queue(.scroll(Float(dy), owner.cursorPosition()))
    }
    glfwSetDropCallback(handle) { window, count, paths in
      guard let owner = GLFWWindow.owner(window), let paths else { return }
      let dropped = (0..<Int(count)).compactMap { i in paths[i].map { String(cString: $0) } }
      owner.queue(.drop(dropped))
    }
  }

  static func viewerKey(_ key: Int32) -> ViewerKey? {
    switch key {
    case GLFW_KEY_SPACE: return .space
    case GLFW_KEY_LEFT: return .left
    case GLFW_KEY_RIGHT: return .right
    case GLFW_KEY_HOME: return .home
    case GLFW_KEY_END: return .end
    case GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD: return .plus
    case GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT: return .minus
    case GLFW_KEY_1...GLFW_KEY_9: return .digit(Int(key - GLFW_KEY_0))
    case GLFW_KEY_A...GLFW_KEY_Z:
      return UnicodeScalar(UInt32(key)).map { .letter(Character($0)) }
    default: return nil
    }
  }
}

/// Why the window could not run.
public struct ViewerError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
