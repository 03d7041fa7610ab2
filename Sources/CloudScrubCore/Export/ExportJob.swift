import Foundation

/// One export, whatever asks for it (`cloudscrub export` or the window): where the
/// points came from and how they were selected, the cleaning, and what to write where.
/// Built from typed values, never from argument lists; `CloudExport` runs it.
///
/// The same job gives the same bytes from the command line and the window.
public struct ExportJob: Equatable, Sendable {
  /// How a recording's frames became points, for the provenance.
  public struct RecordedFrames: Equatable, Sendable {
    /// The frames asked for (the frames written are what the load took of them).
    public var selection: FrameSelection
    /// The sensor-grid filters (confidence, depth range, flying pixels, stride).
    public var unprojection: UnprojectionOptions
    /// The voxel size points were merged at while they loaded, if they were.
    public var ingestMergeMeters: Float?

    public init(
      selection: FrameSelection = FrameSelection(),
      unprojection: UnprojectionOptions = UnprojectionOptions(), ingestMergeMeters: Float? = nil
    ) {
      self.selection = selection
      self.unprojection = unprojection
      self.ingestMergeMeters = ingestMergeMeters
    }
  }

  /// The input as the user named it; the provenance records its file name.
  public var sourcePath: String
  /// For a recording, how its frames were turned into points; nil for a point cloud.
  public var recordedFrames: RecordedFrames?
  /// The cleaning steps after frame selection (the recording's up axis set).
  public var cleaning: CleaningOptions
  /// The file to write.
  public var outputPath: String
  /// The format's name (`--format`), or nil to follow `outputPath`'s extension.
  public var formatName: String?
  /// Text or binary, and the optional fields to write.
  public var writeOptions: CloudWriteOptions
  /// The files the points came from, which the export never overwrites.
  public var inputPaths: [String]
  /// Runs every step but writes nothing.
  public var dryRun: Bool
  /// The exported cloud carries normals of its own (a fused surface's points): they are
  /// written as estimated ones are.
  public var cloudHasNormals = false

  public init(
    sourcePath: String, recordedFrames: RecordedFrames? = nil,
    cleaning: CleaningOptions = CleaningOptions(), outputPath: String, formatName: String? = nil,
    writeOptions: CloudWriteOptions = CloudWriteOptions(), inputPaths: [String]? = nil,
    dryRun: Bool = false
  ) {
    self.sourcePath = sourcePath
    self.recordedFrames = recordedFrames
    self.cleaning = cleaning
    self.outputPath = outputPath
    self.formatName = formatName
    self.writeOptions = writeOptions
    self.inputPaths = inputPaths ?? [sourcePath]
    self.dryRun = dryRun
  }

  /// The provenance line naming the frames written and the options that made them,
  /// or nil for a point-cloud input.
  public func framesDescription(frameIndices: [Int]) -> String? {
    guard let recordedFrames else { return nil }
    let options = recordedFrames.unprojection
    let range = frameIndices.first.map { first in "\(first)-\(frameIndices.last ?? first)" }
    let depth = "\(options.depthRangeMeters.lowerBound)-\(options.depthRangeMeters.upperBound)"
    return "frames \(range ?? "none") every \(recordedFrames.selection.every), "
      + "min confidence \(options.minConfidence), depth range \(depth) m, "
      + "flying pixels \(options.flyingPixels == nil ? "off" : "on"), stride \(options.stride)"
      + (recordedFrames.ingestMergeMeters.map { ", merged while loading at \($0) m" } ?? "")
  }

  /// The provenance of the written file, once the frames are known.
  public func provenance(frameIndices: [Int]) -> ExportProvenance {
    ExportProvenance(
      source: URL(fileURLWithPath: sourcePath).lastPathComponent,
      frames: framesDescription(frameIndices: frameIndices),
      cleaning: Self.cleaningDescription(cleaning))
  }

  /// The write options, with the normals added when the cleaning estimates them (they
  /// are what the step is for) or the cloud comes with its own (`cloudHasNormals`).
  public var effectiveWriteOptions: CloudWriteOptions {
    var options = writeOptions
    guard cleaning.normalNeighbours != nil || cloudHasNormals else { return options }
    switch options.attributes {
    case .none: options.attributes = .named(["normal"])
    case .named(let names) where !names.contains("normal"):
      options.attributes = .named(names + ["normal"])
    default: break
    }
    return options
  }

  /// One provenance line with the cleaning steps, or nil when there are none.
  public static func cleaningDescription(_ options: CleaningOptions) -> String? {
    var parts: [String] = []
    if let box = options.crop {
      parts.append(
        "crop \(box.min.x),\(box.min.y),\(box.min.z),\(box.max.x),\(box.max.y),\(box.max.z)")
    }
    if let band = options.heightBandMeters {
      let axis = options.worldUp == .y ? "" : " along \(options.worldUp.rawValue)"
      parts.append("height band \(band.lowerBound)-\(band.upperBound) m\(axis)")
    }
    if let size = options.voxelSizeMeters { parts.append("voxel \(size) m") }
    if let s = options.statistical { parts.append("sor \(s.neighbours),\(s.stdRatio)") }
    if let r = options.radius {
      parts.append("radius outliers \(r.radiusMeters),\(r.minNeighbours)")
    }
    if let k = options.normalNeighbours { parts.append("normals from \(k) neighbours") }
    return parts.isEmpty ? nil : "cleaning: " + parts.joined(separator: ", ")
  }
}
