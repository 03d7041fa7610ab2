/// Finds a JPEG's pixel size in its start-of-frame segment, without decoding it.
public enum JPEGSize {
  /// The width and height of the JPEG in `bytes`, or nil when no start-of-frame
  /// segment comes before the scan data (or the bytes are not a JPEG).
  public static func read(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
    var i = 2
    while i + 1 < bytes.count {
      guard bytes[i] == 0xFF else { return nil }
      let marker = bytes[i + 1]
      i += 2
      switch marker {
      case 0xFF:
        i -= 1  // fill byte before a marker
        continue
      case 0x01, 0xD0...0xD7:
        continue  // markers without a segment
      case 0xD9, 0xDA:
        return nil  // end of image or start of scan: no frame header before it
      default:
        break
      }
      guard i + 1 < bytes.count else { return nil }
      let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
      // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
      let isStartOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
      if isStartOfFrame {
        guard length >= 7, i + 6 < bytes.count else { return nil }
        let height = Int(bytes[i + 3]) << 8 | Int(bytes[i + 4])
        let width = Int(bytes[i + 5]) << 8 | Int(bytes[i + 6])
        return width > 0 && height > 0 ? (width, height) : nil
      }
      guard length >= 2 else { return nil }
      i += length
    }
    return nil
  }
}
