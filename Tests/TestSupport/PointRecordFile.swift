import CloudScrubCore
import Foundation

/// A file of 16-byte point records for the loads' tests, in no file format: x, y, z as
/// little-endian floats, then red, green, blue and confidence bytes. Record i holds
/// `point(i)`.
public struct PointRecordFile: PointRecordSampler, @unchecked Sendable {
  public static let recordBytes = 16

  public let file: MappedFile
  public let count: Int
  public var recordSize: Int { Self.recordBytes }
  public var recordsOffset: Int { 0 }

  /// Maps the records written by `write`.
  public init(path: String) throws {
    file = try MappedFile(path: path)
    count = file.bytes.count / Self.recordBytes
  }

  /// Record i: x = i / 4, y = i mod 7, z = −i / 4 (all exact in float), colour
  /// (i mod 256, 2i mod 256, 255), confidence i mod 3.
  public static func point(_ index: Int) -> (position: Point3, color: RGB8, confidence: UInt8) {
    (
      Point3(Float(index) / 4, Float(index % 7), -Float(index) / 4),
      RGB8(UInt8(index % 256), UInt8(2 * index % 256), 255), UInt8(index % 3)
    )
  }

  /// Writes `count` records to a file in `folder`; returns its path.
  public static func write(count: Int, in folder: URL) throws -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * recordBytes)
    for index in 0..<count {
      let (p, c, confidence) = point(index)
      for value in [p.x, p.y, p.z] {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
      }
      bytes += [c.r, c.g, c.b, confidence]
    }
    let path = folder.appendingPathComponent("records-\(count).bin").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  public func read(records: Range<Int>, into points: inout FramePoints) {
    let bytes = file.bytes
    for index in records {
      let at = index * Self.recordBytes
      func float(_ offset: Int) -> Float {
        Float(
          bitPattern: UInt32(
            littleEndian: bytes.loadUnaligned(fromByteOffset: at + offset, as: UInt32.self)))
      }
      points.positions.append(Point3(float(0), float(4), float(8)))
      points.colors.append(RGB8(bytes[at + 12], bytes[at + 13], bytes[at + 14]))
      points.confidence.append(bytes[at + 15])
    }
  }

  public func checkIntact() throws { try file.checkIntact() }

  public func checkAfterRecords() throws { try file.checkIntact() }
}
