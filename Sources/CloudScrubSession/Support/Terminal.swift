import Foundation

/// Writes to standard output and standard error, and shows progress on a terminal.
public enum Terminal {
  public static func out(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  public static func error(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  public static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

  /// A progress handler that redraws `label NN%` on standard error when it is a
  /// terminal, or `nil` (no output at all) when it is not.
  public static func progress(_ label: String) -> ProgressLine? {
    standardErrorIsTerminal ? ProgressLine(label: label) : nil
  }
}

/// One line of progress on a terminal, redrawn only when the whole percentage changes.
public final class ProgressLine {
  private let label: String
  private var shownPercent = -1

  public init(label: String) { self.label = label }

  public func update(_ fraction: Double) {
    let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
    guard percent != shownPercent else { return }
    shownPercent = percent
    FileHandle.standardError.write(Data("\r\u{1B}[K\(label) \(percent)%".utf8))
  }

  public func finish() {
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}

extension Optional where Wrapped == ProgressLine {
  /// The line's update function as a `ProgressHandler`, or `nil`.
  public var handler: ((Double) -> Void)? { self.map { line in { line.update($0) } } }
}
