/// One element of an E57 file's XML section: its name as written (with any namespace
/// prefix), attributes, child elements in order, and its text (CDATA included).
struct E57XMLElement: Equatable, Sendable {
  var name: String
  var attributes: [String: String] = [:]
  var children: [E57XMLElement] = []
  var text = ""

  /// The E57 node type (`type` attribute): Structure, Vector, CompressedVector,
  /// Integer, ScaledInteger, Float, String or Blob.
  var type: String? { attributes["type"] }

  /// The first child named `name`.
  func child(_ name: String) -> E57XMLElement? {
    children.first { $0.name == name }
  }
}

/// A small XML parser for E57's XML section: elements, attributes, text, CDATA,
/// comments, processing instructions and the five predefined and numeric character
/// references. A document type declaration is refused (E57 uses none, and refusing it
/// rules out entity expansion), as is nesting deeper than `maximumDepth`.
struct E57XMLParser {
  static let maximumDepth = 64

  private let bytes: [UInt8]
  private var index = 0

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The root element of `bytes`.
  ///
  /// - Throws: `E57ErrorReason.xmlSyntax` with the byte offset, or `.xmlTooDeep`.
  static func parse(_ bytes: [UInt8]) throws(E57ErrorReason) -> E57XMLElement {
    var parser = E57XMLParser(bytes: bytes)
    return try parser.document()
  }

  private mutating func document() throws(E57ErrorReason) -> E57XMLElement {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while true {
      skipWhitespace()
      if starts("<?") {
        try skip(past: "?>")
      } else if starts("<!--") {
        try skip(past: "-->")
      } else if starts("<!") {
        throw fail("a document type declaration or other '<!' markup before the root")
      } else if starts("<") {
        break
      } else {
        throw fail(index >= bytes.count ? "no root element" : "text before the root element")
      }
    }
    let root = try elements()
    while true {
      skipWhitespace()
      if index >= bytes.count { return root }
      if starts("<?") {
        try skip(past: "?>")
      } else if starts("<!--") {
        try skip(past: "-->")
      } else if bytes[index] == 0 {
        // libE57Format pads the last page after the XML; tolerate NUL padding.
        index += 1
      } else {
        throw fail("content after the root element")
      }
    }
  }

  /// Parses the element starting at `index` with everything inside it.
  private mutating func elements() throws(E57ErrorReason) -> E57XMLElement {
    var stack: [E57XMLElement] = []
    var text: [UInt8] = []
    let (first, closed) = try startTag()
    if closed { return first }
    stack.append(first)
    while !stack.isEmpty {
      guard index < bytes.count else {
        throw fail("the document ends inside <\(stack[stack.count - 1].name)>")
      }
      let byte = bytes[index]
      if byte != UInt8(ascii: "<") {
        if byte == UInt8(ascii: "&") {
          try reference(into: &text)
        } else {
          text.append(byte)
          index += 1
        }
        continue
      }
      if starts("<![CDATA[") {
        index += 9
        guard let end = find("]]>") else { throw fail("an unterminated CDATA section") }
        text.append(contentsOf: bytes[index..<end])
        index = end + 3
      } else if starts("<!--") {
        try skip(past: "-->")
      } else if starts("<?") {
        try skip(past: "?>")
      } else if starts("</") {
        index += 2
        let name = try name()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
          throw fail("a malformed end tag </\(name)")
        }
        index += 1
        var element = stack.removeLast()
        guard element.name == name else {
          throw fail("</\(name)> closes <\(element.name)>")
        }
        element.text = String(decoding: text, as: UTF8.self)
        text = []
        if stack.isEmpty { return element }
        stack[stack.count - 1].children.append(element)
      } else if starts("<!") {
        throw fail("'<!' markup inside an element")
      } else {
        // Text between child elements is layout, not content.
        text = []
        let (child, closed) = try startTag()
        if closed {
          stack[stack.count - 1].children.append(child)
        } else {
          guard stack.count < Self.maximumDepth else {
            throw .xmlTooDeep(limit: Self.maximumDepth)
          }
          stack.append(child)
        }
      }
    }
    throw fail("no root element")
  }

  /// Parses `<name attr="value" ...>` or `<name .../>`; `closed` for the latter.
  private mutating func startTag() throws(E57ErrorReason) -> (E57XMLElement, closed: Bool) {
    index += 1
    var element = E57XMLElement(name: try name())
    while true {
      skipWhitespace()
      guard index < bytes.count else { throw fail("the document ends inside <\(element.name)") }
      if bytes[index] == UInt8(ascii: ">") {
        index += 1
        return (element, false)
      }
      if starts("/>") {
        index += 2
        return (element, true)
      }
      let attribute = try name()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
        throw fail("attribute \(attribute) of <\(element.name)> has no '='")
      }
      index += 1
      skipWhitespace()
      guard index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 else {
        throw fail("attribute \(attribute) of <\(element.name)> has no quoted value")
      }
      let quote = bytes[index]
      index += 1
      var value: [UInt8] = []
      while index < bytes.count, bytes[index] != quote {
        if bytes[index] == UInt8(ascii: "&") {
          try reference(into: &value)
        } else if bytes[index] == UInt8(ascii: "<") {
          throw fail("'<' inside attribute \(attribute) of <\(element.name)>")
        } else {
          value.append(bytes[index])
          index += 1
        }
      }
      guard index < bytes.count else { throw fail("an unterminated attribute \(attribute)") }
      index += 1
      guard element.attributes[attribute] == nil else {
        throw fail("attribute \(attribute) repeated in <\(element.name)>")
      }
      element.attributes[attribute] = String(decoding: value, as: UTF8.self)
    }
  }

  private mutating func name() throws(E57ErrorReason) -> String {
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte <= 0x20 || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
        || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "<") || byte == 0x22 || byte == 0x27
      {
        break
      }
      index += 1
    }
    guard index > start else { throw fail("a name was expected") }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Decodes `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` and `&#xN;`.
  private mutating func reference(into out: inout [UInt8]) throws(E57ErrorReason) {
    guard let end = find(";", within: 12) else { throw fail("an unterminated '&' reference") }
    let body = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    let scalar: Unicode.Scalar?
    switch body {
    case "lt": scalar = "<"
    case "gt": scalar = ">"
    case "amp": scalar = "&"
    case "quot": scalar = "\""
    case "apos": scalar = "'"
    default:
      if body.hasPrefix("#x") {
        scalar = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
      } else if body.hasPrefix("#") {
        scalar = UInt32(body.dropFirst(1)).flatMap(Unicode.Scalar.init)
      } else {
        scalar = nil
      }
    }
    guard let scalar else { throw fail("unknown reference &\(body);") }
    out.append(contentsOf: Array(String(Character(scalar)).utf8))
    index = end + 1
  }

  private mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func skip(past marker: String) throws(E57ErrorReason) {
    guard let end = find(marker) else { throw fail("an unterminated '\(marker)' construct") }
    index = end + marker.utf8.count
  }

  private func starts(_ text: String) -> Bool {
    let marker = Array(text.utf8)
    guard bytes.count - index >= marker.count else { return false }
    for (offset, byte) in marker.enumerated() where bytes[index + offset] != byte { return false }
    return true
  }

  /// The offset of the next `marker` from `index`, looking at most `within` bytes ahead.
  private func find(_ marker: String, within: Int = .max) -> Int? {
    let needle = Array(marker.utf8)
    let limit = within == .max ? Int.max : index + within
    let last = min(bytes.count - needle.count, limit)
    guard last >= index, let head = needle.first else { return nil }
    var position = index
    while position <= last {
      if bytes[position] == head {
        var matches = true
        for k in 1..<needle.count where bytes[position + k] != needle[k] {
          matches = false
          break
        }
        if matches { return position }
      }
      position += 1
    }
    return nil
  }

  private func fail(_ message: String) -> E57ErrorReason {
    .xmlSyntax(byteOffset: index, message: message)
  }
}
