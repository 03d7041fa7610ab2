import CloudScrubCore
import Foundation

/// Something opened in the window: a name, the load that streams its points, and what
/// it is, a recording or a point-cloud file, with what each needs afterwards (frame
/// previews and re-unprojection for a recording, every property of the points for a
/// cloud's export).
public struct ViewerDocument {
  /// What kind of file was opened, with what only that kind has.
  public enum Kind {
    /// A recording: its frames, and what decodes and unprojects them again.
    case recording(RecordingDocument)
    /// A point-cloud file: a way to have its points whole, with every property.
    case cloud(CloudDocument)
  }

  /// The path as the user gave it (or as it resolved to, for a recording folder).
  public var path: String
  public var load: StreamingLoad
  /// What the document was opened as, before its points are read.
  private var openedSummary: String
  public var kind: Kind
  /// What the user should read about how the path opened (which recording a folder
  /// held, options that do not apply), a line each.
  public var notes: [String] = []

  public init(path: String, load: StreamingLoad, summary: String, kind: Kind) {
    self.path = path
    self.load = load
    self.openedSummary = summary
    self.kind = kind
  }

  /// A line describing the format ("PLY binary little endian, 1.2 M points"); for a
  /// file read in the background, its format until it is read.
  public var summary: String {
    guard case .cloud(let cloud) = kind, case .reading(let read) = cloud.points,
      let summary = read.summary
    else { return openedSummary }
    return summary
  }

  /// The recording, for frame previews; nil for a point-cloud file.
  public var recording: (any RecordingSource)? {
    guard case .recording(let recording) = kind else { return nil }
    return recording.source
  }

  /// The up axis of the recording's world or of the cloud file.
  public var worldUp: WorldUp {
    switch kind {
    case .recording(let recording): return recording.source.description.worldUp
    case .cloud(let cloud): return cloud.worldUp
    }
  }

  /// Decodes a recording's colour images for the previews; nil for a point-cloud file.
  public var decoder: (any ColorDecoder)? {
    guard case .recording(let recording) = kind else { return nil }
    return recording.decoder
  }

  /// The loader a recording's frames load with (see `RecordingDocument.loader`); nil
  /// for a point-cloud file.
  public var loader: RecordingLoader? {
    guard case .recording(let recording) = kind else { return nil }
    return recording.loader
  }
}

/// What the window keeps of an opened recording.
public struct RecordingDocument {
  public var source: any RecordingSource
  public var decoder: any ColorDecoder
  /// The loader the frames load with (their selection, sensor-grid filters and
  /// decoder; without the memory plan's merge), with which the cleaning preview and
  /// the refined export unproject the shown frames again under refined poses.
  public var loader: RecordingLoader

  public init(source: any RecordingSource, decoder: any ColorDecoder, loader: RecordingLoader) {
    self.source = source
    self.decoder = decoder
    self.loader = loader
  }
}

/// What the window keeps of an opened point-cloud file: its points whole, with every
/// property read (normals, attributes), which the export writes.
public struct CloudDocument {
  /// The points as read, the file being read in the background, or how to read them
  /// whole again from what was opened (a mapping that outlives the file's removal) for
  /// a file loaded in samples.
  public enum Points {
    case kept(PointCloud)
    case reading(CloudRead)
    case rereadable(() throws -> PointCloud)
  }

  public var points: Points
  /// The file's up axis (z for LAS and LAZ), known from its format when it opens.
  public var worldUp: WorldUp

  public init(points: Points, worldUp: WorldUp = .y) {
    self.points = points
    self.worldUp = worldUp
  }

  /// The whole cloud, read again when it was not kept.
  ///
  /// - Throws: what reading the file again throws; `UsageError` while the file is
  ///   still being read, or when reading it failed.
  public func wholeCloud() throws -> PointCloud {
    switch points {
    case .kept(let cloud): return cloud
    case .reading(let read):
      guard let cloud = read.cloud else {
        throw UsageError("the file's points are not read yet; export once it has loaded")
      }
      return cloud
    case .rereadable(let read): return try read()
    }
  }

  /// A mesh file's triangles with their vertices, once read; nil for any other file.
  public var mesh: TriangleMesh? {
    guard case .reading(let read) = points else { return nil }
    return read.mesh
  }

  /// The points as read, once they are.
  public var keptCloud: PointCloud? {
    switch points {
    case .kept(let cloud): return cloud
    case .reading(let read): return read.cloud
    case .rereadable: return nil
    }
  }
}

/// A point-cloud file being read in the background: its cloud and summary once read
/// (and a mesh file's triangles), set by the loading thread and read by the window's.
public final class CloudRead: @unchecked Sendable {
  private let lock = NSLock()
  private var read: (cloud: PointCloud, summary: String, triangles: [SIMD3<UInt32>]?)?

  public init() {}

  /// The cloud, once read.
  public var cloud: PointCloud? { lock.withLock { read?.cloud } }

  /// The line describing the file and its points, once read.
  public var summary: String? { lock.withLock { read?.summary } }

  /// A mesh file's triangles, whose vertices are the cloud's points, once read; nil
  /// for any other file.
  public var mesh: TriangleMesh? {
    lock.withLock {
      guard let read, let triangles = read.triangles else { return nil }
      return TriangleMesh(vertices: read.cloud, triangles: triangles)
    }
  }

  /// Keeps what the loading thread read.
  func finished(_ cloud: PointCloud, summary: String, triangles: [SIMD3<UInt32>]? = nil) {
    lock.withLock { read = (cloud, summary, triangles) }
  }
}
