import Foundation

/// Why an LZFSE stream could not be decoded, and where.
///
/// `byteOffset` is the offset in the compressed input of the block (its magic) or
/// LZVN opcode being decoded when the problem was found; for problems inside an
/// LZFSE block's entropy-coded streams, it is the start of that stream's payload
/// (literals, or L, M, D triples).
public struct LZFSEError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What is wrong with the stream.
  public enum Reason: Equatable, Sendable {
    /// The input ends inside `what` (a block header, a payload, an opcode).
    case truncated(what: String)
    /// A block starts with a four-byte magic that is none of `bvx-`, `bvxn`, `bvx1`,
    /// `bvx2` or `bvx$`.
    case unknownBlockMagic(UInt32)
    /// The input ends without the end-of-stream block `bvx$`.
    case missingEndOfStream
    /// A header field is out of its allowed range.
    case invalidHeader(field: String, value: Int)
    /// A frequency table does not sum to its number of states, or is needed but empty.
    case invalidFrequencyTable(table: String, sum: Int, states: Int)
    /// A bit stream's initial state is malformed, or decoding would read outside it.
    case invalidBitStream(stream: String)
    /// A match refers to bytes before the start of the output (or has distance 0).
    case invalidMatchDistance(distance: Int, available: Int)
    /// A block produced more or fewer bytes than its header declares, or used more
    /// literals or payload than it holds.
    case blockSizeMismatch(declared: Int, actual: Int)
    /// An LZVN opcode that the format leaves undefined.
    case undefinedOpcode(UInt8)
    /// The stream declares more output than the decoder accepts.
    case outputTooLarge(declared: Int, limit: Int)
    /// The stream's total size differs from the caller's `expectedSize`.
    case expectedSizeMismatch(expected: Int, declared: Int)
  }

  /// What is wrong.
  public var reason: Reason
  /// Offset in the compressed input where decoding stopped.
  public var byteOffset: Int

  public init(_ reason: Reason, at byteOffset: Int) {
    self.reason = reason
    self.byteOffset = byteOffset
  }

  public var description: String {
    "LZFSE: \(reasonText) at byte \(byteOffset)"
  }

  private var reasonText: String {
    switch reason {
    case .truncated(let what): return "input truncated in \(what)"
    case .unknownBlockMagic(let magic):
      return "unknown block magic 0x\(String(magic, radix: 16))"
    case .missingEndOfStream: return "no end-of-stream block (bvx$)"
    case .invalidHeader(let field, let value):
      return "header field \(field) out of range (\(value))"
    case .invalidFrequencyTable(let table, let sum, let states):
      return "\(table) frequencies sum to \(sum), not \(states)"
    case .invalidBitStream(let stream): return "malformed \(stream) bit stream"
    case .invalidMatchDistance(let distance, let available):
      return "match distance \(distance) with only \(available) bytes decoded"
    case .blockSizeMismatch(let declared, let actual):
      return "block declares \(declared) but holds \(actual)"
    case .undefinedOpcode(let opcode): return "undefined LZVN opcode 0x\(String(opcode, radix: 16))"
    case .outputTooLarge(let declared, let limit):
      return "stream declares \(declared) bytes, more than the limit \(limit)"
    case .expectedSizeMismatch(let expected, let declared):
      return "stream declares \(declared) bytes, expected \(expected)"
    }
  }
}
