/// A value with its past and (after undoing) its future: every change is one step
/// back. The window keeps its cleaning options in one, so any change can be undone.
public struct UndoHistory<Value: Equatable & Sendable>: Sendable {
  public private(set) var current: Value
  private var past: [Value] = []
  private var future: [Value] = []
  /// Steps kept; the oldest are forgotten past this.
  public let limit: Int

  public init(_ initial: Value, limit: Int = 200) {
    current = initial
    self.limit = max(1, limit)
  }

  public var canUndo: Bool { !past.isEmpty }
  public var canRedo: Bool { !future.isEmpty }

  /// Makes `value` current; a value equal to the current one is no step.
  public mutating func set(_ value: Value) {
    guard value != current else { return }
    past.append(current)
    if past.count > limit { past.removeFirst(past.count - limit) }
    future = []
    current = value
  }

  /// Goes one step back; nothing happens when there is none.
  public mutating func undo() {
    guard let previous = past.popLast() else { return }
    future.append(current)
    current = previous
  }

  /// Goes one step forward again after an undo.
  public mutating func redo() {
    guard let next = future.popLast() else { return }
    past.append(current)
    current = next
  }
}
