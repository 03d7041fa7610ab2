/// Which of a cloud's optional fields an export writes besides x y z and colour.
public enum CloudAttributeSelection: Equatable, Sendable {
  /// Positions and colours only.
  case none
  /// Normals and every attribute the cloud carries.
  case all
  /// The named attributes; `normal` selects the normals.
  case named([String])
}

/// What an export cannot do with the options it was given, whatever the format.
public enum CloudWriteError: Error, Equatable, CustomStringConvertible, Sendable {
  case unknownAttribute(name: String, available: [String])
  case inconsistentCloud

  public var description: String {
    switch self {
    case .unknownAttribute(let name, let available):
      let list = available.isEmpty ? "none" : available.joined(separator: ", ")
      return "the cloud has no attribute '\(name)' (it has: \(list))"
    case .inconsistentCloud:
      return "the cloud's per-point arrays differ in length"
    }
  }
}
