import CLZF
import CloudScrubCore

/// LZF compression through liblzf, as PCL's `binary_compressed` PCD data uses it.
public enum LZF {
  /// `bytes` decompressed to exactly `count` bytes, or nil when they are not valid
  /// LZF or expand to another size.
  public static func decompress(_ bytes: UnsafeRawBufferPointer, count: Int) -> [UInt8]? {
    guard count > 0 else { return bytes.isEmpty ? [] : nil }
    guard count <= Int(UInt32.max), bytes.count <= Int(UInt32.max),
      let input = bytes.baseAddress
    else { return nil }
    var output = [UInt8](repeating: 0, count: count)
    let written = output.withUnsafeMutableBytes { out in
      lzf_decompress(input, UInt32(bytes.count), out.baseAddress, UInt32(count))
    }
    return Int(written) == count ? output : nil
  }

  /// `bytes` compressed, or nil when compressing would not make them smaller.
  public static func compress(_ bytes: [UInt8]) -> [UInt8]? {
    guard !bytes.isEmpty, bytes.count <= Int(UInt32.max) else { return nil }
    var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 16 + 64)
    let written = bytes.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { out in
        lzf_compress(input.baseAddress, UInt32(bytes.count), out.baseAddress, UInt32(out.count))
      }
    }
    guard written > 0 else { return nil }
    return Array(output.prefix(Int(written)))
  }

  /// The decompressor `PCDReader` takes.
  public static let pcdDecompressor: PCDReader.LZFDecompressor = { bytes, count in
    decompress(bytes, count: count)
  }
}
