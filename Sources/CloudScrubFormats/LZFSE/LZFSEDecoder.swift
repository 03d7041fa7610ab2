import Foundation

/// Decoding of LZFSE, Apple's compression format (an LZ77 coder with finite-state
/// entropy coding), which Record3D uses for the depth and confidence maps in `.r3d`
/// files. Pure Swift; no C library.
///
/// A stream is a sequence of blocks, each starting with a four-byte magic: `bvx-`
/// (stored bytes), `bvxn` (LZVN), `bvx1` (LZFSE with plain frequency tables), `bvx2`
/// (LZFSE with packed tables), ending with `bvx$`. Matches may reach back into
/// earlier blocks. Bytes after `bvx$` are ignored.
public enum LZFSE {
  /// The most output a stream may declare: 4 GiB.
  public static let maximumOutputBytes = 1 << 32

  /// Output declared up to this size (or up to 256 times the input, if more) is
  /// allocated at once; beyond it the buffer grows as bytes are actually decoded,
  /// so a small corrupt header cannot make the decoder allocate gigabytes.
  static let preallocationLimit = 64 << 20

  /// Decodes a whole LZFSE stream (any mix of v1, v2, LZVN and uncompressed
  /// blocks, ending with the end-of-stream block).
  ///
  /// - Parameters:
  ///   - input: the compressed bytes.
  ///   - expectedSize: when given, the stream must declare exactly this many bytes;
  ///     checked before anything is allocated.
  /// - Returns: the decoded bytes.
  /// - Throws: `LZFSEError` naming what is wrong (truncation, an unknown block, a
  ///   malformed header or table, a bit stream or match out of range, a size
  ///   mismatch) and the byte offset in the input.
  public static func decode(_ input: UnsafeRawBufferPointer, expectedSize: Int? = nil) throws
    -> [UInt8]
  {
    guard let base = input.baseAddress, input.count > 0 else {
      throw LZFSEError(.missingEndOfStream, at: 0)
    }
    let source = LZFSEInput(base: base, count: input.count)
    let (frames, declaredSize) = try walk(source)
    if let expectedSize, expectedSize != declaredSize {
      throw LZFSEError(.expectedSizeMismatch(expected: expectedSize, declared: declaredSize), at: 0)
    }
    let trusted = max(
      preallocationLimit, input.count <= Int.max / 256 ? input.count * 256 : Int.max)
    if declaredSize <= trusted {
      return try [UInt8](unsafeUninitializedCapacity: declaredSize + LZFSEOutput.slack) {
        buffer, count in
        guard let pointer = buffer.baseAddress else { return }
        var output = LZFSEOutput(borrowing: pointer, capacity: buffer.count)
        try decodeBlocks(frames, source, into: &output)
        count = output.count
      }
    }
    var output = LZFSEOutput(initialCapacity: trusted, declaredSize: declaredSize)
    defer { output.release() }
    try decodeBlocks(frames, source, into: &output)
    return [UInt8](UnsafeBufferPointer(start: output.base, count: output.count))
  }

  /// Decodes a whole LZFSE stream held in an array; see
  /// `decode(_:expectedSize:)` for the rules.
  ///
  /// - Throws: `LZFSEError`.
  public static func decode(_ input: [UInt8], expectedSize: Int? = nil) throws -> [UInt8] {
    try input.withUnsafeBytes { try decode($0, expectedSize: expectedSize) }
  }

  /// Reads every block's framing up to the end-of-stream block, checking that each
  /// block is wholly present, and sums the sizes they declare.
  private static func walk(_ source: LZFSEInput) throws -> ([LZFSEBlockFrame], Int) {
    var frames: [LZFSEBlockFrame] = []
    var offset = 0
    var declaredSize = 0
    while true {
      guard offset < source.count else {
        throw LZFSEError(.missingEndOfStream, at: offset)
      }
      let frame = try LZFSEBlockFrame.read(source, at: offset)
      if frame.kind == .endOfStream { break }
      declaredSize += frame.rawSize
      guard declaredSize <= maximumOutputBytes else {
        throw LZFSEError(
          .outputTooLarge(declared: declaredSize, limit: maximumOutputBytes), at: offset)
      }
      frames.append(frame)
      offset = frame.end
    }
    return (frames, declaredSize)
  }

  private static func decodeBlocks(
    _ frames: [LZFSEBlockFrame], _ source: LZFSEInput, into output: inout LZFSEOutput
  ) throws {
    var blockDecoder: LZFSEBlockDecoder?
    for frame in frames {
      switch frame.kind {
      case .uncompressed:
        try output.reserve(frame.rawSize, blockOffset: frame.offset)
        UnsafeMutableRawPointer(output.base + output.count).copyMemory(
          from: source.base + frame.payloadOffset, byteCount: frame.rawSize)
        output.count += frame.rawSize
      case .lzvn:
        try LZVNDecoder.decode(frame, source, into: &output)
      case .v1, .v2:
        let decoder = blockDecoder ?? LZFSEBlockDecoder()
        blockDecoder = decoder
        try decoder.decode(frame, source, into: &output)
      case .endOfStream:
        break
      }
    }
  }
}
