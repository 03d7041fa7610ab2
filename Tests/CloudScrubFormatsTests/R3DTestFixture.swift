import CloudScrubCore
import Foundation
import TestSupport

@testable import CloudScrubFormats

/// `.r3d` files written from a small synthetic recording into a temporary folder.
struct R3DTestFixture {
  let folder: URL
  let source: any RecordingSource

  /// 5 frames of 256×192 depth and 320×240 colour (LiDAR-like).
  static let lidar = SyntheticRecordingOptions(
    frameCount: 5, depthWidth: 256, depthHeight: 192, colorWidth: 320, colorHeight: 240)
  /// 4 frames of 640×480 depth and colour (TrueDepth-like).
  static let trueDepth = SyntheticRecordingOptions(
    frameCount: 4, depthWidth: 640, depthHeight: 480, colorWidth: 640, colorHeight: 480)

  init(_ options: SyntheticRecordingOptions = lidar) throws {
    try self.init(source: SyntheticRecordingSource(options: options))
  }

  init(source: any RecordingSource) throws {
    folder = try TestData.makeTemporaryDirectory()
    self.source = source
  }

  func file(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Writes the source as `name` with `options` and returns its path.
  func write(_ name: String = "capture.r3d", options: R3DWriter.Options = .init()) throws
    -> String
  {
    let path = file(name)
    try R3DWriter(options: options).write(source, to: path)
    return path
  }

  /// Writes a ZIP of the given entries (stored, so their bytes can be found and patched).
  func writeZip(_ name: String, entries: [(String, [UInt8])]) throws -> String {
    let path = file(name)
    let writer = try R3DArchiveWriter(path: path)
    for (entry, bytes) in entries { try writer.add(entry, bytes, compressed: false) }
    try writer.close()
    return path
  }

  /// The entries of a `.r3d` written from the source, by name, to rebuild altered
  /// archives from.
  func entries(options: R3DWriter.Options = .init()) throws -> [(String, [UInt8])] {
    let archive = try R3DArchive(
      path: try write("entries-\(UUID().uuidString).r3d", options: options))
    return try archive.entryNames.map { ($0, try archive.read($0, limitBytes: 1 << 30)) }
  }

  func delete() { try? FileManager.default.removeItem(at: folder) }

  /// The world points of `frame`, unprojected without filters that depend on
  /// neighbours, so that two copies of a frame give the same pixels.
  static func worldPoints(_ frame: CapturedFrame) throws -> [Point3] {
    try Unprojector.unproject(
      frame, options: UnprojectionOptions(flyingPixels: nil), decoder: TurboJPEGDecoder()
    ).positions
  }

  /// The largest distance between corresponding points, or nil when the counts differ.
  static func largestDistance(_ a: [Point3], _ b: [Point3]) -> Double? {
    guard a.count == b.count else { return nil }
    var largest = 0.0
    for (p, q) in zip(a, b) {
      let d = SIMD3(Double(p.x - q.x), Double(p.y - q.y), Double(p.z - q.z))
      largest = max(largest, (d * d).sum().squareRoot())
    }
    return largest
  }
}

/// A recording whose frames are another's with other intrinsics and poses, to tell
/// per-frame values from `K` and to move `poses[0]` away from anything special.
struct AlteredRecording: RecordingSource {
  let base: SyntheticRecordingSource
  /// Frame i's intrinsics get fx, fy multiplied by 1 + i × `focalStep`.
  var focalStep: Double = 0
  /// Applied after every frame's pose.
  var worldFromBaseWorld: Transform3D = .identity

  var description: RecordingDescription { base.description }
  var frameCount: Int { base.frameCount }

  func frame(at index: Int) throws -> CapturedFrame {
    var frame = try base.frame(at: index)
    let scale = 1 + Double(index) * focalStep
    frame.intrinsics.fx *= scale
    frame.intrinsics.fy *= scale
    frame.pose.worldFromCamera = worldFromBaseWorld * frame.pose.worldFromCamera
    return frame
  }
}

/// Byte patching of ZIP files for malformed-archive tests.
enum ZipPatch {
  /// Sets the uncompressed size of `entry` in the central directory to `size`.
  static func claimSize(_ size: UInt32, entry: String, in path: String) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let name = Array(entry.utf8)
    var offset = 0
    var patched = false
    while offset + 46 <= bytes.count {
      // Central directory file header: PK\1\2, name length at 28, name at 46.
      if bytes[offset..<offset + 4] == [0x50, 0x4B, 0x01, 0x02] {
        let nameLength = Int(bytes[offset + 28]) | Int(bytes[offset + 29]) << 8
        if offset + 46 + nameLength <= bytes.count,
          Array(bytes[(offset + 46)..<(offset + 46 + nameLength)]) == name
        {
          withUnsafeBytes(of: size.littleEndian) { raw in
            for i in 0..<4 { bytes[offset + 24 + i] = raw[i] }
          }
          patched = true
        }
      }
      offset += 1
    }
    precondition(patched, "no central directory entry \(entry)")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }
}
