import CloudScrubCore
import Foundation

/// Reading and writing the loose files that folder layouts share (3D Scanner App,
/// Polycam, ARKitScenes): whole files, JSON objects, millimetre depth PNGs and
/// confidence PNGs, with errors that name the file.
enum CaptureFolderFiles {
  /// Element `index` of a recording's frames.
  ///
  /// - Throws: `CaptureFolderError.frameOutOfRange` for an index outside them.
  static func frame<T>(_ frames: [T], _ index: Int, folder: String) throws -> T {
    guard frames.indices.contains(index) else {
      throw CaptureFolderError(
        .frameOutOfRange(index: index, frameCount: frames.count), path: folder)
    }
    return frames[index]
  }

  /// The bytes of `path`; `what` names the file for the error when it is absent.
  static func read(_ path: String, what: String) throws(CaptureFolderError) -> [UInt8] {
    guard FileManager.default.fileExists(atPath: path) else {
      throw CaptureFolderError(.missingFile(what: what), path: path)
    }
    do {
      return try FileBytes.read(path)
    } catch let error as FileError {
      throw CaptureFolderError(.unreadableFile(message: FileBytes.reason(error)), path: path)
    } catch {
      throw CaptureFolderError(.unreadableFile(message: "\(error)"), path: path)
    }
  }

  /// The names of the entries in `folder`, sorted; empty when it cannot be listed.
  static func names(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  static func isFolder(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      && isFolder.boolValue
  }

  /// The JSON object in `path`, for typed access to its keys.
  static func jsonObject(_ path: String, what: String) throws(CaptureFolderError) -> JSONFields {
    let bytes = try read(path, what: what)
    let dictionary: [String: Any]
    do {
      dictionary = try JSONText.topLevelObject(bytes)
    } catch {
      throw CaptureFolderError(.notJSON(message: error.message), path: path)
    }
    return JSONFields(dictionary: dictionary, path: path)
  }

  /// Writes `bytes` to `path`, creating the folders above it.
  static func write(_ bytes: [UInt8], to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
  }

  // MARK: - PNG

  /// A PNG's width and height from its `IHDR` chunk, without decoding it; `nil` when
  /// the bytes do not start like a PNG.
  static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count >= 24, bytes.starts(with: signature),
      bytes[12..<16].elementsEqual(Array("IHDR".utf8))
    else { return nil }
    func bigEndian(_ offset: Int) -> Int {
      bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    return (bigEndian(16), bigEndian(20))
  }

  /// A depth PNG's size from its header, checked against `ImageSizeLimits` before
  /// anything is allocated from it.
  ///
  /// - Throws: `CaptureFolderError.badImage` when the bytes do not start like a PNG or
  ///   the size is implausible.
  static func depthPNGSize(_ bytes: [UInt8], path: String) throws(CaptureFolderError) -> (
    width: Int, height: Int
  ) {
    guard let size = pngSize(bytes) else {
      throw CaptureFolderError(.badImage(message: "no PNG header"), path: path)
    }
    if let problem = ImageSizeLimits.depthProblem(width: size.width, height: size.height) {
      throw CaptureFolderError(.badImage(message: "its header claims a \(problem)"), path: path)
    }
    return size
  }

  /// Decodes a 16-bit PNG of depths in millimetres (0: no depth) to metres.
  ///
  /// - Throws: `CaptureFolderError` when the PNG is unreadable or truncated, or its
  ///   size is not `expectedWidth` × `expectedHeight`.
  static func millimeterDepth(
    _ bytes: [UInt8], path: String, expectedWidth: Int, expectedHeight: Int
  ) throws(CaptureFolderError) -> DepthMap {
    let image = try gray(
      bytes, path: path, expectedWidth: expectedWidth, expectedHeight: expectedHeight)
    return DepthMap(
      width: image.width, height: image.height, meters: image.samples.map { Float($0) / 1000 })
  }

  /// Decodes an 8-bit confidence PNG to ARKit levels 0–2. Some exports spread the
  /// levels over 0/127/255: when a value above 2 is present the samples are mapped to
  /// the nearest level of 0, 127.5 and 255.
  ///
  /// - Throws: `CaptureFolderError` as `millimeterDepth` does.
  static func confidence(
    _ bytes: [UInt8], path: String, expectedWidth: Int, expectedHeight: Int
  ) throws(CaptureFolderError) -> ConfidenceMap {
    let image = try gray(
      bytes, path: path, expectedWidth: expectedWidth, expectedHeight: expectedHeight)
    let spread = image.samples.contains { $0 > 2 }
    let values = image.samples.map { sample -> UInt8 in
      spread ? UInt8(min(2, (Int(sample) * 2 + 127) / 255)) : UInt8(sample)
    }
    return ConfidenceMap(width: image.width, height: image.height, values: values)
  }

  /// Whether a confidence PNG stores its levels as 0/127/255 rather than 0–2.
  static func confidenceIsSpread(_ bytes: [UInt8], path: String) -> Bool {
    guard let image = try? PNGCodec.decodeGray16(bytes, path: path) else { return false }
    return image.samples.contains { $0 > 2 }
  }

  private static func gray(
    _ bytes: [UInt8], path: String, expectedWidth: Int, expectedHeight: Int
  ) throws(CaptureFolderError) -> Gray16Image {
    let image: Gray16Image
    do {
      image = try PNGCodec.decodeGray16(bytes, path: path)
    } catch let error as PNGError {
      throw CaptureFolderError(.badImage(message: error.reason), path: path)
    } catch {
      throw CaptureFolderError(.badImage(message: "\(error)"), path: path)
    }
    guard image.width == expectedWidth, image.height == expectedHeight else {
      throw CaptureFolderError(
        .wrongImageSize(
          width: image.width, height: image.height, expectedWidth: expectedWidth,
          expectedHeight: expectedHeight), path: path)
    }
    return image
  }

  /// A depth map as a 16-bit PNG of millimetres, rounded; no depth and depths past
  /// 65.535 m become 0.
  static func encodeMillimeters(_ depth: DepthMap) throws -> [UInt8] {
    let samples = depth.metersGrid().map { meters -> UInt16 in
      let millimeters = (Double(meters) * 1000).rounded()
      return millimeters > 0 && millimeters <= 65_535 ? UInt16(millimeters) : 0
    }
    return try PNGCodec.encodeGray16(
      Gray16Image(width: depth.width, height: depth.height, samples: samples))
  }

  /// A confidence map as an 8-bit PNG of levels 0–2, or 0/127/255 with `spread`.
  static func encodeConfidence(_ confidence: ConfidenceMap, spread: Bool = false) throws -> [UInt8]
  {
    var samples = [UInt8]()
    samples.reserveCapacity(confidence.width * confidence.height)
    for y in 0..<confidence.height {
      for x in 0..<confidence.width {
        let level = min(confidence.value(x: x, y: y), 2)
        samples.append(spread ? [0, 127, 255][Int(level)] : level)
      }
    }
    return try PNGCodec.encodeGray8(
      width: confidence.width, height: confidence.height, samples: samples)
  }

  /// A colour image as JPEG bytes: JPEG passes through, decoded forms are encoded.
  static func jpegBytes(_ color: ColorImage, encoder: TurboJPEGEncoder) throws -> [UInt8]? {
    switch color {
    case .jpeg(let bytes): return bytes
    case .rgb(let image): return try encoder.encode(image)
    case .yCbCr420, .bgra: return nil
    }
  }
}

/// Typed access to a JSON object's values, throwing `CaptureFolderError` that names the
/// key and the file.
struct JSONFields {
  let dictionary: [String: Any]
  let path: String

  func has(_ key: String) -> Bool { dictionary[key] != nil && !(dictionary[key] is NSNull) }

  func number(_ key: String) throws(CaptureFolderError) -> Double {
    guard has(key), let value = dictionary[key] else { throw missing(key) }
    guard let number = (value as? NSNumber)?.doubleValue, number.isFinite else {
      throw bad(key, "a number")
    }
    return number
  }

  func positiveInt(_ key: String) throws(CaptureFolderError) -> Int {
    let value = try number(key)
    guard value >= 1, value <= Double(Int32.max), value.rounded() == value else {
      throw bad(key, "a positive whole number")
    }
    return Int(value)
  }

  /// An array of exactly `count` finite numbers.
  func numbers(_ key: String, count: Int) throws(CaptureFolderError) -> [Double] {
    guard has(key) else { throw missing(key) }
    guard let array = dictionary[key] as? [Any], array.count == count else {
      throw bad(key, "an array of \(count) numbers")
    }
    var values = [Double]()
    for element in array {
      guard let number = (element as? NSNumber)?.doubleValue, number.isFinite else {
        throw bad(key, "an array of \(count) numbers")
      }
      values.append(number)
    }
    return values
  }

  func missing(_ key: String) -> CaptureFolderError {
    CaptureFolderError(.missingKey(key), path: path)
  }

  func bad(_ key: String, _ expected: String) -> CaptureFolderError {
    CaptureFolderError(.badValue(key: key, expected: expected), path: path)
  }
}
