import Foundation

/// `bench/format_peers.py`, through which tests hand our files to other libraries
/// (Open3D, laspy, trimesh) and read theirs. A test that needs a peer is enabled only
/// when `available` names it, so it skips where the peer is not installed.
public enum FormatPeers {
  public static let script = TestData.packageRoot.appendingPathComponent("bench/format_peers.py")
    .path
  public static let python = XTools.locate("python3")

  /// The peers that import here, as the script's `check` prints them.
  public static let available: Set<String> = {
    guard let python,
      let result = try? CommandRunner.run(
        executable: URL(fileURLWithPath: python), [script, "check"], timeoutSeconds: 120)
    else { return [] }
    return Set(result.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init))
  }()

  /// `bench/laz_peers.py`: laspy with lazrs on LAZ files.
  public static let lazScript = TestData.packageRoot.appendingPathComponent("bench/laz_peers.py")
    .path

  /// The LAZ peers that import here: "lazrs" (laspy with lazrs) and "laszip" (laspy's
  /// LASzip backend, the format's reference implementation).
  static let lazPeers: Set<String> = {
    guard let python,
      let result = try? CommandRunner.run(
        executable: URL(fileURLWithPath: python), [lazScript, "check"], timeoutSeconds: 120)
    else { return [] }
    return Set(result.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init))
  }()

  /// Whether laspy and lazrs import here.
  public static var lazrs: Bool { lazPeers.contains("lazrs") }

  /// Whether laspy's LASzip backend imports here (`pip install laszip`).
  public static var laszip: Bool { lazPeers.contains("laszip") }

  /// Runs the script with `arguments` and returns what it printed.
  ///
  /// - Throws: `PeerError` when python3 is missing or the script fails.
  public static func run(_ arguments: [String], script: String = script) throws -> String {
    guard let python else { throw PeerError("python3 is not on PATH") }
    let result = try CommandRunner.run(
      executable: URL(fileURLWithPath: python), [script] + arguments, timeoutSeconds: 300)
    guard result.status == 0 else { throw PeerError(result.standardError) }
    return result.standardOutput
  }

  /// The JSON object a command printed.
  public static func json(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { throw PeerError("not a JSON object: \(text)") }
    return object
  }
}

/// A peer that could not run, or failed, with what it said.
public struct PeerError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
