import Foundation

/// Decodes LZVN blocks (`bvxn`), the byte-oriented LZ coding the reference encoder
/// uses for small inputs. Each opcode carries a literal length L (its literal bytes
/// follow it), a match length M and a match distance D, or reuses the previous D.
enum LZVNDecoder {
  /// Decodes the block framed by `frame` and appends its bytes to `output`.
  static func decode(_ frame: LZFSEBlockFrame, _ input: LZFSEInput, into output: inout LZFSEOutput)
    throws
  {
    try output.reserve(frame.rawSize, blockOffset: frame.offset)
    let outputBase = output.base
    let blockStart = outputBase + output.count
    let blockEnd = blockStart + frame.rawSize
    var dst = blockStart
    var position = frame.payloadOffset
    let payloadEnd = frame.end
    // The reference decoder starts every LZVN block with no previous distance.
    var distance = 0
    while position < payloadEnd {
      let opcode = input.byte(position)
      let available = payloadEnd - position
      let opcodeOffset = position
      func need(_ length: Int) throws {
        guard available >= length else {
          throw LZFSEError(.truncated(what: "LZVN opcode"), at: opcodeOffset)
        }
      }
      var opcodeLength = 1
      var literalLength = 0
      var matchLength = 0
      switch opcode {
      case 0x06:
        // End of stream: the opcode and seven padding bytes end the payload.
        guard available == 8 else {
          throw LZFSEError(
            .blockSizeMismatch(
              declared: frame.payloadSize, actual: position + 8 - frame.payloadOffset),
            at: position)
        }
        position = payloadEnd
        continue
      case 0x0e, 0x16:
        position += 1
        continue
      case 0x70...0x7f, 0xd0...0xdf, 0x1e, 0x26, 0x2e, 0x36, 0x3e:
        throw LZFSEError(.undefinedOpcode(opcode), at: position)
      case 0xe0:
        try need(2)
        opcodeLength = 2
        literalLength = Int(input.byte(position + 1)) + 16
      case 0xe1...0xef:
        literalLength = Int(opcode & 0x0f)
      case 0xf0:
        try need(2)
        opcodeLength = 2
        matchLength = Int(input.byte(position + 1)) + 16
      case 0xf1...0xff:
        matchLength = Int(opcode & 0x0f)
      case 0xa0...0xbf:
        // Medium distance: 101LLMMM DDDDDDMM DDDDDDDD.
        try need(3)
        opcodeLength = 3
        let operand = input.u16(position + 1)
        literalLength = Int((opcode >> 3) & 3)
        matchLength = (Int(opcode & 7) << 2 | operand & 3) + 3
        distance = operand >> 2
      default:
        // LLMMMxxx with xxx = 111 (16-bit distance), 110 (previous distance) or
        // anything else (11-bit distance, the low byte in the next byte).
        literalLength = Int(opcode >> 6)
        matchLength = Int((opcode >> 3) & 7) + 3
        switch opcode & 7 {
        case 7:
          try need(3)
          opcodeLength = 3
          distance = input.u16(position + 1)
        case 6:
          break
        default:
          try need(2)
          opcodeLength = 2
          distance = Int(opcode & 7) << 8 | Int(input.byte(position + 1))
        }
      }
      let literalStart = position + opcodeLength
      guard literalStart <= payloadEnd, literalLength <= payloadEnd - literalStart else {
        throw LZFSEError(.truncated(what: "LZVN literal"), at: position)
      }
      guard literalLength + matchLength <= blockEnd - dst else {
        throw LZFSEError(
          .blockSizeMismatch(
            declared: frame.rawSize, actual: dst - blockStart + literalLength + matchLength),
          at: position)
      }
      if literalLength > 0 {
        let source = input.base + literalStart
        // Word copies may read 15 bytes past the literal, so only well inside the input.
        if literalStart + literalLength + 16 <= input.count {
          LZCopy.literals(from: source, to: dst, count: literalLength)
        } else {
          LZCopy.literalsExactly(from: source, to: dst, count: literalLength)
        }
        dst += literalLength
      }
      if matchLength > 0 {
        guard distance > 0, distance <= dst - outputBase else {
          throw LZFSEError(
            .invalidMatchDistance(distance: distance, available: dst - outputBase), at: position)
        }
        LZCopy.match(at: dst, distance: distance, count: matchLength)
        dst += matchLength
      }
      position = literalStart + literalLength
    }
    guard dst == blockEnd else {
      throw LZFSEError(
        .blockSizeMismatch(declared: frame.rawSize, actual: dst - blockStart), at: frame.offset)
    }
    output.count += frame.rawSize
  }
}
