import Foundation

/// Drives windows on one X display with `xdotool`: finds them, reads their titles,
/// moves the pointer, clicks and types, the way a user would.
public struct XDoTool {
  /// The display name, e.g. ":93".
  public let display: String

  public init(display: String) {
    self.display = display
  }

  /// Runs `xdotool` with `arguments` and returns its standard output.
  ///
  /// - Throws: `XToolError` when xdotool fails.
  @discardableResult
  public func run(_ arguments: [String]) throws -> String {
    let output = try XTools.run("xdotool", arguments, display: display)
    guard output.status == 0 else {
      throw XToolError(
        "xdotool \(arguments.joined(separator: " ")) failed (\(output.status)): \(output.standardError)"
      )
    }
    return output.standardOutput
  }

  /// Waits until a window whose name matches `pattern` (a regular expression, as
  /// `xdotool search --name` takes it) exists and returns its id.
  ///
  /// - Parameter stillRunning: checked while waiting; returning false (the program
  ///   that should open the window has died) ends the wait early with an error.
  /// - Throws: `XToolError` when no such window appears within `timeout` seconds.
  public func waitForWindow(
    named pattern: String, timeout: TimeInterval, stillRunning: () -> Bool = { true }
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      guard stillRunning() else {
        throw XToolError("the program exited before a window \"\(pattern)\" appeared")
      }
      // Status 1 with no output just means nothing matches yet.
      let output = try XTools.run("xdotool", ["search", "--name", pattern], display: display)
      if output.status == 0,
        let first = output.standardOutput.split(whereSeparator: \.isNewline).first
      {
        return String(first)
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    throw XToolError("no window named \"\(pattern)\" within \(timeout) s")
  }

  /// The window's current name (its title).
  ///
  /// - Throws: `XToolError` when the window is gone.
  public func windowName(_ window: String) throws -> String {
    var name = try run(["getwindowname", window])
    if name.hasSuffix("\n") { name.removeLast() }
    return name
  }

  /// Polls the window's name until `condition` holds and returns that name.
  ///
  /// - Throws: `XToolError` naming the last title seen when `condition` does not hold
  ///   within `timeout` seconds, or when `stillRunning` turns false.
  @discardableResult
  public func waitForName(
    of window: String, timeout: TimeInterval, stillRunning: () -> Bool = { true },
    _ what: String = "the expected title", until condition: (String) -> Bool
  ) throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while true {
      guard stillRunning() else {
        throw XToolError("the window's program exited; last title \"\(last)\"")
      }
      last = try windowName(window)
      if condition(last) { return last }
      if Date() >= deadline { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw XToolError("no \(what) within \(timeout) s; last title \"\(last)\"")
  }

  /// Moves the pointer to (`x`, `y`) in screen pixels.
  public func moveMouse(x: Int, y: Int) throws {
    try run(["mousemove", "--sync", String(x), String(y)])
  }

  /// Presses and releases `keys` (X keysym names such as "Home", "Right", "space",
  /// "4") one after the other, sent to the window that has the keyboard focus.
  public func key(_ keys: String...) throws {
    try run(["key"] + keys)
  }

  /// Presses mouse `button` (1 is left) where the pointer is, without releasing it.
  public func mouseDown(_ button: Int = 1) throws {
    try run(["mousedown", String(button)])
  }

  /// Releases mouse `button`.
  public func mouseUp(_ button: Int = 1) throws {
    try run(["mouseup", String(button)])
  }
}
