import CloudScrubCore

/// What is wrong with a Record3D `.r3d` archive, and which file.
public typealias R3DError = InputFileError<R3DErrorReason>

/// What went wrong, without the path.
public enum R3DErrorReason: Equatable, Sendable {
  /// libzip cannot open the file as a ZIP archive; `message` is libzip's.
  case notAZipArchive(message: String)
  /// The archive lacks an entry the recording needs (`metadata`, `rgbd/0.depth`, …).
  case missingEntry(String)
  /// An unzipped `.r3d` folder lacks a file the recording needs.
  case missingFile(String)
  /// A folder inside an unzipped `.r3d` cannot be listed; `message` says why.
  case unlistableFolder(String, message: String)
  /// The `.r3d` holds `metadata` but no frames (no `rgbd/` entries), as old Record3D
  /// versions shared them; `poseCount` is how many poses the metadata lists.
  case metadataOnly(poseCount: Int)
  /// An entry's name is absolute or climbs out of the archive with `..`.
  case unsafeEntryName(String)
  /// An entry claims more bytes than CloudScrub accepts for it.
  case entryTooLarge(entry: String, declaredBytes: Int, limitBytes: Int)
  /// An entry could not be read or decompressed; `message` is libzip's.
  case unreadableEntry(entry: String, message: String)
  /// The `metadata` entry is missing a key or has a malformed one.
  case metadata(Record3DError.Reason)
  /// A depth or confidence entry is not a valid LZFSE stream.
  case lzfse(entry: String, LZFSEError)
  /// A frame's depth or confidence map does not hold `dw × dh` samples.
  case mapSizeMismatch(entry: String, expectedBytes: Int, actualBytes: Int)
  /// The metadata has no `dw`/`dh` and no known depth size fits `rgbd/0.depth`.
  case unknownDepthSize(bytes: Int)
  /// `frame(at:)` was asked for a frame the recording does not have.
  case frameOutOfRange(index: Int, frameCount: Int)
}

extension R3DErrorReason: CustomStringConvertible {
  /// What went wrong, without the path.
  public var description: String {
    switch self {
    case .notAZipArchive(let message):
      return "not a readable .r3d (ZIP) archive: \(message)"
    case .missingEntry(let entry):
      return "archive has no entry '\(entry)'"
    case .missingFile(let name):
      return "unzipped .r3d folder has no file '\(name)'"
    case .unlistableFolder(let name, let message):
      return "cannot list the folder '\(name)' of the unzipped .r3d (\(message))"
    case .metadataOnly(let poseCount):
      return
        "this .r3d holds only 'metadata' (\(poseCount) poses) and no frames: no rgbd/ depth, "
        + "confidence or colour entries (old Record3D versions shared such files); "
        + "`cloudscrub info` shows what the metadata says"
    case .unsafeEntryName(let entry):
      return "archive entry '\(entry)' has an absolute path or '..'"
    case .entryTooLarge(let entry, let declared, let limit):
      return "archive entry '\(entry)' claims \(declared) bytes, more than the limit \(limit)"
    case .unreadableEntry(let entry, let message):
      return "cannot read archive entry '\(entry)': \(message)"
    case .metadata(let reason):
      return "entry 'metadata': \(reason)"
    case .lzfse(let entry, let error):
      return "entry '\(entry)': \(error)"
    case .mapSizeMismatch(let entry, let expected, let actual):
      return "entry '\(entry)' holds \(actual) bytes, expected \(expected) (dw × dh samples)"
    case .unknownDepthSize(let bytes):
      return
        "metadata has no dw/dh and rgbd/0.depth's \(bytes) bytes fit no known depth size"
    case .frameOutOfRange(let index, let frameCount):
      return "frame \(index) is out of range (the recording has \(frameCount) frames)"
    }
  }
}
