import CloudScrubCore

/// Parses the text header at the start of a PLY file.
enum PLYHeaderParser {
  /// The longest header line accepted. Real headers' lines are short (a long comment
  /// is a few hundred bytes); a longer one means a damaged or hostile file, refused
  /// before it is copied into a string.
  static let maximumLineBytes = 1 << 16

  /// Parses the header in `bytes` and returns it with `bodyOffset` set.
  ///
  /// Accepts `\n` and `\r\n` line ends, `comment` and `obj_info` lines anywhere, blank
  /// lines, and runs of spaces or tabs between words.
  /// - Throws: `PLYError` naming the line that cannot be understood.
  static func parse(_ bytes: UnsafeRawBufferPointer) throws(PLYError) -> PLYHeader {
    var cursor = 0
    var lineNumber = 0
    var format: PLYFormat?
    var version = ""
    var elements: [PLYElement] = []
    var comments: [String] = []
    var objInfo: [String] = []

    while true {
      guard cursor < bytes.count else {
        if lineNumber == 0 { throw .notPLY }
        throw .missingEndHeader(byteCount: bytes.count)
      }
      let lineStart = cursor
      let lineLimit = min(bytes.count, lineStart + maximumLineBytes)
      while cursor < lineLimit && bytes[cursor] != UInt8(ascii: "\n") { cursor += 1 }
      if cursor == lineLimit && lineLimit < bytes.count {
        if lineNumber == 0 { throw .notPLY }
        let start = String(decoding: bytes[lineStart..<(lineStart + 40)], as: UTF8.self)
        throw .malformedHeader(
          line: lineNumber + 1, text: start + "…",
          reason: "a header line longer than \(maximumLineBytes) bytes")
      }
      var lineEnd = cursor
      if cursor < bytes.count { cursor += 1 }  // past "\n"
      if lineEnd > lineStart && bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
      lineNumber += 1
      let text = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)

      if lineNumber == 1 {
        guard text.trimmingSpaces() == "ply" else { throw .notPLY }
        continue
      }
      let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let keyword = words.first else { continue }
      switch keyword {
      case "comment":
        comments.append(text.remainder(after: "comment"))
      case "obj_info":
        objInfo.append(text.remainder(after: "obj_info"))
      case "format":
        guard format == nil else {
          throw .malformedHeader(line: lineNumber, text: text, reason: "a second 'format' line")
        }
        guard words.count == 3, let parsed = PLYFormat(rawValue: String(words[1])) else {
          throw .malformedHeader(
            line: lineNumber, text: text,
            reason: "expected 'format ascii|binary_little_endian|binary_big_endian VERSION'")
        }
        format = parsed
        version = String(words[2])
      case "element":
        guard words.count == 3, let count = Int(words[2]), count >= 0 else {
          throw .malformedHeader(
            line: lineNumber, text: text, reason: "expected 'element NAME COUNT' with COUNT ≥ 0")
        }
        elements.append(PLYElement(name: String(words[1]), count: count))
      case "property":
        guard !elements.isEmpty else {
          throw .malformedHeader(
            line: lineNumber, text: text, reason: "a property before any element")
        }
        let property = try parseProperty(words, line: lineNumber, text: text)
        elements[elements.count - 1].properties.append(property)
      case "end_header":
        guard words.count == 1 else {
          throw .malformedHeader(line: lineNumber, text: text, reason: "text after 'end_header'")
        }
        guard let format else {
          throw .malformedHeader(
            line: lineNumber, text: text, reason: "the header has no 'format' line")
        }
        return PLYHeader(
          format: format, version: version, elements: elements, comments: comments,
          objInfo: objInfo, bodyOffset: cursor)
      default:
        throw .malformedHeader(
          line: lineNumber, text: text, reason: "unknown keyword '\(keyword)'")
      }
    }
  }

  private static func parseProperty(
    _ words: [Substring], line: Int, text: String
  ) throws(PLYError) -> PLYProperty {
    if words.count >= 2 && words[1] == "list" {
      guard words.count == 5 else {
        throw .malformedHeader(
          line: line, text: text, reason: "expected 'property list COUNT_TYPE ITEM_TYPE NAME'")
      }
      guard let countType = ScalarType(plyName: words[2]) else {
        throw .unknownType(name: String(words[2]), line: line)
      }
      guard !countType.isFloatingPoint else {
        throw .malformedHeader(
          line: line, text: text, reason: "a list count must be an integer type")
      }
      guard let itemType = ScalarType(plyName: words[3]) else {
        throw .unknownType(name: String(words[3]), line: line)
      }
      return PLYProperty(name: String(words[4]), kind: .list(count: countType, item: itemType))
    }
    guard words.count == 3 else {
      throw .malformedHeader(line: line, text: text, reason: "expected 'property TYPE NAME'")
    }
    guard let type = ScalarType(plyName: words[1]) else {
      throw .unknownType(name: String(words[1]), line: line)
    }
    return PLYProperty(name: String(words[2]), kind: .scalar(type))
  }
}

extension String {
  fileprivate func trimmingSpaces() -> Substring {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" { s.removeLast() }
    return s
  }

  /// The text after a leading keyword and the one space that follows it.
  fileprivate func remainder(after keyword: String) -> String {
    var s = trimmingSpaces()
    s.removeFirst(keyword.count)
    if let c = s.first, c == " " || c == "\t" { s.removeFirst() }
    return String(s)
  }
}
