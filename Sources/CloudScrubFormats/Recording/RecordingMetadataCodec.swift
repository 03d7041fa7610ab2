import CloudScrubCore

/// The `META` chunk's payload: frame rate, depth sensor and UTF-8 key/value entries.
enum RecordingMetadataCodec {
  /// The payload for `metadata`.
  ///
  /// - Throws: `RecordingFormatError.invalidMetadata` for a frame rate that is not
  ///   positive and finite, an empty or reserved extra key, or text over 4 GiB.
  static func encode(_ metadata: RecordingMetadata) throws -> [UInt8] {
    func invalid(_ reason: String) -> RecordingFormatError { .invalidMetadata(reason: reason) }
    if let fps = metadata.framesPerSecond, !(fps.isFinite && fps > 0) {
      throw invalid("frame rate \(fps) is not a positive number")
    }
    var entries: [(String, String)] = []
    if let app = metadata.appName { entries.append((RecordingLayout.appKey, app)) }
    if let device = metadata.deviceModel { entries.append((RecordingLayout.deviceKey, device)) }
    for key in metadata.extraFields.keys.sorted() {
      guard !key.isEmpty, key != RecordingLayout.appKey, key != RecordingLayout.deviceKey else {
        throw invalid("extra field key '\(key)' is empty or reserved")
      }
      entries.append((key, metadata.extraFields[key, default: ""]))
    }
    var payload: [UInt8] = []
    payload.appendLittleEndian(metadata.framesPerSecond ?? 0)
    payload.append(metadata.depthSensor.rawValue)
    payload.append(contentsOf: [0, 0, 0])
    payload.appendLittleEndian(UInt32(entries.count))
    for (key, value) in entries {
      let keyBytes = Array(key.utf8)
      let valueBytes = Array(value.utf8)
      guard let keyCount = UInt32(exactly: keyBytes.count),
        let valueCount = UInt32(exactly: valueBytes.count)
      else { throw invalid("field '\(key.prefix(40))' is longer than 4 GiB") }
      payload.appendLittleEndian(keyCount)
      payload.appendLittleEndian(valueCount)
      payload.append(contentsOf: keyBytes)
      payload.append(contentsOf: valueBytes)
    }
    return payload
  }

  /// Decodes the metadata payload `cursor` covers.
  static func decode(_ cursor: inout PayloadCursor) throws -> RecordingMetadata {
    let fpsOffset = cursor.offset
    let fps = try cursor.float64("frame rate")
    guard fps.isFinite, fps >= 0 else { throw cursor.malformed("frame rate \(fps)", at: fpsOffset) }
    // A sensor code from a newer minor version reads as unknown.
    let sensor = DepthSensor(rawValue: try cursor.uint8("depth sensor")) ?? .unknown
    for _ in 0..<3 { _ = try cursor.uint8("reserved") }
    let countOffset = cursor.offset
    let count = try cursor.int("entry count")
    guard count <= cursor.remaining / RecordingLayout.metadataEntryHeaderBytes else {
      throw cursor.malformed(
        "\(count) entries need at least \(count * 8) bytes, only \(cursor.remaining) remain",
        at: countOffset)
    }
    var metadata = RecordingMetadata(framesPerSecond: fps > 0 ? fps : nil, depthSensor: sensor)
    var seen = Set<String>()
    for _ in 0..<count {
      let entryOffset = cursor.offset
      let keyCount = try cursor.int("key length")
      let valueCount = try cursor.int("value length")
      let key = try cursor.text(keyCount, "key")
      let value = try cursor.text(valueCount, "value of '\(key.prefix(40))'")
      guard !key.isEmpty, seen.insert(key).inserted else {
        throw cursor.malformed("empty or repeated key '\(key.prefix(40))'", at: entryOffset)
      }
      switch key {
      case RecordingLayout.appKey: metadata.appName = value
      case RecordingLayout.deviceKey: metadata.deviceModel = value
      default: metadata.extraFields[key] = value
      }
    }
    return metadata
  }
}
