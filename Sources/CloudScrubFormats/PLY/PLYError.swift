import CloudScrubCore

/// What is wrong with a PLY file, and where.
///
/// Byte offsets count from the start of the file; line numbers from 1.
public enum PLYError: Error, Equatable, Sendable {
  /// The file does not start with the `ply` magic line.
  case notPLY
  /// No `end_header` line was found before the end of the file.
  case missingEndHeader(byteCount: Int)
  /// A header line that cannot be understood.
  case malformedHeader(line: Int, text: String, reason: String)
  /// A type name that is not one of PLY's scalar types.
  case unknownType(name: String, line: Int)
  /// The header declares no `vertex` element; the elements it has are listed.
  case missingVertexElement(elements: [String])
  /// The vertex element lacks a required property (`x`, `y` or `z`).
  case missingProperty(name: String, element: String)
  /// The header claims more records than the file's body could hold.
  case countExceedsFile(element: String, count: Int, minimumBytes: Int, availableBytes: Int)
  /// The body ends inside a record.
  case truncated(element: String, index: Int, byteOffset: Int)
  /// A list count that is negative.
  case invalidListCount(element: String, index: Int, count: Int, byteOffset: Int)
  /// An ASCII token that is not a number of the property's type.
  case badNumber(token: String, line: Int, element: String, property: String)
  /// A face names a vertex the file does not have.
  case badFaceIndex(face: Int, index: Double, vertexCount: Int)
}

extension PLYError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .notPLY:
      return "not a PLY file: the first line is not 'ply'"
    case .missingEndHeader(let byteCount):
      return "header has no 'end_header' line in the file's \(byteCount) bytes"
    case .malformedHeader(let line, let text, let reason):
      return "malformed header line \(line): \(reason): '\(text)'"
    case .unknownType(let name, let line):
      return "unknown type '\(name)' on header line \(line)"
    case .missingVertexElement(let elements):
      let list = elements.isEmpty ? "none" : elements.joined(separator: ", ")
      return "no 'vertex' element in the header (elements: \(list))"
    case .missingProperty(let name, let element):
      return "element '\(element)' has no property '\(name)'"
    case .countExceedsFile(let element, let count, let minimumBytes, let availableBytes):
      return "header claims \(count) '\(element)' records needing at least \(minimumBytes) "
        + "bytes, but only \(availableBytes) bytes remain in the file"
    case .truncated(let element, let index, let byteOffset):
      return "truncated body: '\(element)' record \(index) runs past the end of the file "
        + "at byte \(byteOffset)"
    case .invalidListCount(let element, let index, let count, let byteOffset):
      return "invalid list count \(count) in '\(element)' record \(index) at byte \(byteOffset)"
    case .badNumber(let token, let line, let element, let property):
      return "line \(line): '\(token)' is not a valid value for property '\(property)' "
        + "of element '\(element)'"
    case .badFaceIndex(let face, let index, let vertexCount):
      return "face \(face) names vertex \(index.formatted()), but the file has \(vertexCount) "
        + "vertices"
    }
  }
}

/// A `PLYError` with the path of the file, which its message names last.
public typealias PLYFileError = InputFileError<PLYError>
