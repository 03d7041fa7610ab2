/// Reads a range of two numbers written `MIN-MAX` or `MIN,MAX`, where either number may
/// be negative: `-1.5-0.8`, `-1--0.5`, `-1,3`, `1e-3-2`. The one parser of every range
/// the command line and the window accept (frames, depth, height).
///
/// A `-` separates the numbers only where it follows the end of a number (a digit, a
/// `.`, or the `f` of `inf`), so a leading minus sign and an exponent's sign stay with
/// their numbers. Spaces around the numbers are ignored. The order of the two numbers
/// is not checked here: callers say what they need.
public enum RangeText {
  /// The two number texts of `text`, or nil when it holds no separator.
  public static func split(_ text: String) -> (lower: String, upper: String)? {
    let characters = Array(text)
    if let comma = characters.firstIndex(of: ",") {
      let lower = String(characters[..<comma])
      let upper = String(characters[(comma + 1)...])
      guard !upper.contains(",") else { return nil }
      return (trimmed(lower), trimmed(upper))
    }
    var index = 1
    while index < characters.count {
      if characters[index] == "-" && endsNumber(characters[index - 1]) {
        return (
          trimmed(String(characters[..<index])), trimmed(String(characters[(index + 1)...]))
        )
      }
      index += 1
    }
    return nil
  }

  /// The two numbers of `text` parsed by `parse`, or nil when `text` is no range or
  /// either number does not parse.
  public static func parse<Value>(_ text: String, as parse: (String) -> Value?) -> (
    lower: Value, upper: Value
  )? {
    guard let (lowerText, upperText) = split(text), let lower = parse(lowerText),
      let upper = parse(upperText)
    else { return nil }
    return (lower, upper)
  }

  /// How the CLI's errors and help describe the accepted forms.
  public static let forms = "MIN-MAX or MIN,MAX (negative numbers too: -1.5-0.8, -1,3)"

  private static func endsNumber(_ character: Character) -> Bool {
    character.isNumber || character == "." || character == "f" || character == "F"
  }

  private static func trimmed(_ text: String) -> String {
    var slice = Substring(text)
    while slice.first == " " { slice.removeFirst() }
    while slice.last == " " { slice.removeLast() }
    return String(slice)
  }
}
