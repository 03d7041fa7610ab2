import CImGuiBridge

/// The bytes Dear ImGui edits for one single-line text field.
///
/// `draw(_:showing:)` shows a string that the viewer state holds and hands back what
/// the user typed, for a command: the state keeps the one copy of the text, and the
/// field shows whatever it holds now (a new document's file name, say). `draw(_:)`
/// keeps the text here, for a field whose text nothing else reads until a button
/// takes it (the Open field).
struct TextField {
  private var bytes = [CChar](repeating: 0, count: 1024)

  /// The field's text.
  var text: String {
    String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Draws the field showing `shown`; returns the field's text when the user changed it
  /// this frame, nil otherwise.
  mutating func draw(_ label: String, showing shown: String) -> String? {
    if text != shown { fill(with: shown) }
    return draw(label) ? text : nil
  }

  /// Draws the field with its own text; true when the user changed it this frame.
  mutating func draw(_ label: String) -> Bool {
    csui_input_text(label, &bytes, bytes.count)
  }

  private mutating func fill(with text: String) {
    let utf8 = Array(text.utf8.prefix(bytes.count - 1))
    for i in bytes.indices { bytes[i] = i < utf8.count ? CChar(bitPattern: utf8[i]) : 0 }
  }
}
