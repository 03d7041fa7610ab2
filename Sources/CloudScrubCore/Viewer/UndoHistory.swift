/// A value with its past and (after undoing) its future: every change is one step
/// back. The viewer keeps the user's edits in one (`ViewerEdits`), so any change can be
/// undone.
public struct UndoHistory<Value: Equatable & Sendable>: Equatable, Sendable {
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

  /// The value `undo()` would go back to; nil when there is nothing to undo.
  public var previous: Value? {
    if let editStart, editStart != current { return editStart }
    return past.last
  }

  /// The value `redo()` would go forward to; nil when there is nothing to redo (an
  /// edit in progress that changed the value forgets the future when it finishes).
  public var next: Value? {
    if let editStart, editStart != current { return nil }
    return future.last
  }

  /// The value before the edit in progress (a slider being dragged), nil when none.
  private var editStart: Value?

  /// Whether an edit is in progress: values change without steps until it finishes.
  public var isEditing: Bool { editStart != nil }

  /// Makes `value` current; a value equal to the one before is no step. During an edit,
  /// this finishes it: one step from the value before the edit.
  public mutating func set(_ value: Value) {
    let before = editStart ?? current
    editStart = nil
    current = value
    guard value != before else { return }
    past.append(before)
    if past.count > limit { past.removeFirst(past.count - limit) }
    future = []
  }

  /// Makes `value` current as part of an edit that goes on over many changes (each
  /// tick of a dragged slider); `finished` ends it, and the whole edit is one step back
  /// to the value before it began.
  public mutating func edit(_ value: Value, finished: Bool) {
    if finished {
      set(value)
    } else {
      if editStart == nil { editStart = current }
      current = value
    }
  }

  /// Goes one step back (finishing an edit in progress first); nothing happens when
  /// there is none.
  public mutating func undo() {
    if isEditing { set(current) }
    guard let previous = past.popLast() else { return }
    future.append(current)
    current = previous
  }

  /// Goes one step forward again after an undo.
  public mutating func redo() {
    if isEditing { set(current) }
    guard let next = future.popLast() else { return }
    past.append(current)
    current = next
  }
}
