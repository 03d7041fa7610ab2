import CloudScrubCore

/// Byte layout of a CloudScrub recording (`.csrec`), as docs/recording-format.md
/// describes it. Every number is little-endian; every chunk starts at a multiple of 8.
enum RecordingLayout {
  // MARK: - File header

  /// `C S R E C \r \n 0x1A`: a line-end conversion or a text-mode copy breaks it.
  static let magic: [UInt8] = [0x43, 0x53, 0x52, 0x45, 0x43, 0x0D, 0x0A, 0x1A]
  static let fileHeaderBytes = 16
  static let majorVersion: UInt16 = 1
  static let minorVersion: UInt16 = 0
  /// Flag bits a reader must understand to read the file; none are defined in 1.x.
  static let requiredFlagsMask: UInt32 = 0x0000_FFFF

  // MARK: - Chunks

  /// Tag (4), CRC-32 of the payload (4), payload length (8).
  static let chunkHeaderBytes = 16
  static let alignment = 8

  enum Tag {
    static let metadata = tag("META")
    static let frame = tag("FRAM")
    static let index = tag("INDX")
    static let trailer = tag("TAIL")

    private static func tag(_ text: StaticString) -> UInt32 {
      text.withUTF8Buffer { buffer in
        buffer.reversed().reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
      }
    }

    /// A tag as text for messages ("FRAM"), with bytes outside printable ASCII as `?`.
    static func name(_ tag: UInt32) -> String {
      let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> ($0 * 8)) }
      return String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }

    /// Whether readers that do not know `tag` may skip its chunk: its first letter is
    /// lowercase ASCII.
    static func isSkippable(_ tag: UInt32) -> Bool {
      (0x61...0x7A).contains(UInt8(truncatingIfNeeded: tag))
    }
  }

  // MARK: - Metadata payload

  /// framesPerSecond (f64), depthSensor (u8), 3 reserved, entry count (u32).
  static let metadataFixedBytes = 16
  /// Key length (u32) and value length (u32) before each entry's text.
  static let metadataEntryHeaderBytes = 8
  static let appKey = "app"
  static let deviceKey = "device"

  // MARK: - Frame payload

  /// Offsets of the fixed frame header's fields within a frame chunk's payload.
  enum Frame {
    static let headerBytes = 0  // u32: length of this header (240 in 1.0)
    static let headerChecksum = 4  // u32: CRC-32 of header bytes 8..<length
    static let frameIndex = 8  // u32, then 4 reserved
    static let timestampSeconds = 16  // f64
    static let worldFromCamera = 24  // 16 × f64, column-major
    static let fx = 152  // f64, then fy, cx, cy
    static let intrinsicsWidth = 184  // u32, then height
    static let cameraAxes = 192  // u8
    static let orientation = 193  // u8
    static let depthSampleType = 194  // u8
    static let depthEncoding = 195  // u8
    static let hasConfidence = 196  // u8
    static let colorForm = 197  // u8
    static let colorRange = 198  // u8
    // 199: reserved u8
    static let depthWidth = 200  // u32, then height, bytesPerRow
    static let confidenceWidth = 212  // u32, then height, bytesPerRow
    static let colorWidth = 224  // u32, then height
    static let colorBytesPerRow = 232  // u32
    static let chromaBytesPerRow = 236  // u32
    /// The fixed header's length in version 1.0; blobs follow it.
    static let fixedBytes = 240
    /// Where the header checksum's bytes start.
    static let checksummedFrom = 8
    /// Each blob's length (u64) before its bytes.
    static let blobLengthBytes = 8
  }

  /// Codes of the frame header's one-byte fields.
  enum Code {
    static let axesOpenGL: UInt8 = 0
    static let axesOpenCV: UInt8 = 1
    static let sampleFloat32: UInt8 = 0
    static let sampleFloat16: UInt8 = 1
    static let encodingDepth: UInt8 = 0
    static let encodingDisparity: UInt8 = 1
    static let colorNone: UInt8 = 0
    static let colorJPEG: UInt8 = 1
    static let colorRGB: UInt8 = 2
    static let colorYCbCr420: UInt8 = 3
    static let colorBGRA: UInt8 = 4
    static let rangeVideo: UInt8 = 0
    static let rangeFull: UInt8 = 1
  }

  // MARK: - Index and trailer

  /// Frame count (u64) before the frame chunks' offsets (u64 each).
  static let indexFixedBytes = 8
  /// Index chunk offset (u64) and frame count (u64).
  static let trailerPayloadBytes = 16
  static let trailerBytes = chunkHeaderBytes + trailerPayloadBytes

  /// `n` rounded up to a multiple of the alignment, or nil when that overflows.
  static func aligned(_ n: Int) -> Int? {
    let (sum, overflow) = n.addingReportingOverflow(alignment - 1)
    return overflow ? nil : sum & ~(alignment - 1)
  }
}
