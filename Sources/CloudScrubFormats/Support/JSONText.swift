import Foundation

/// The JSON files the importers read (Record3D metadata, 3D Scanner App and Polycam
/// frames, nerfstudio transforms), parsed to their top-level object with an error that
/// says what is wrong and where.
enum JSONText {
  /// Why some bytes are not a JSON object, in words that name the place (character
  /// offset, nesting) when the parser says.
  struct Problem: Error, Equatable {
    var message: String
  }

  /// The top-level object of the JSON text in `bytes`.
  ///
  /// - Throws: `Problem` when the bytes are not JSON (with the parser's own account:
  ///   "Too many nested arrays or dictionaries around character 513", "Unexpected end
  ///   of file"), or when the top level is not an object.
  static func topLevelObject(_ bytes: [UInt8]) throws(Problem) -> [String: Any] {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(bytes))
    } catch {
      throw Problem(message: describe(error))
    }
    guard let dictionary = object as? [String: Any] else {
      throw Problem(message: "the top level is not an object")
    }
    return dictionary
  }

  /// The parser's detailed account of `error` when it gives one (its debug
  /// description), else the generic one ("The data is not in the correct format.").
  static func describe(_ error: Error) -> String {
    let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
    guard let detail, !detail.isEmpty else { return error.localizedDescription }
    return detail.hasSuffix(".") ? String(detail.dropLast()) : detail
  }
}
