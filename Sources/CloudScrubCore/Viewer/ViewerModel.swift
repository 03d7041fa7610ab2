/// What a fused model is made from: the timeline positions shown, the minimum
/// confidence, and the poses (the refinement shown, or none: the recorded poses). A
/// model made from other inputs than those the view shows now is stale.
public struct ModelInputs: Equatable, Sendable {
  /// Timeline positions, first to last.
  public var frames: ClosedRange<Int>
  public var minConfidence: ConfidenceLevel
  public var refinement: PoseRefinement?

  public init(frames: ClosedRange<Int>, minConfidence: ConfidenceLevel, refinement: PoseRefinement?)
  {
    self.frames = frames
    self.minConfidence = minConfidence
    self.refinement = refinement
  }
}

/// The mesh the scene has, in numbers.
public struct ModelSummary: Equatable, Sendable {
  /// What it was fused from; nil for a mesh file, which is never stale.
  public var inputs: ModelInputs?
  public var vertices: Int
  public var triangles: Int
  /// The voxel size it was fused at; nil for a mesh file.
  public var voxelMeters: Float?

  public init(inputs: ModelInputs?, vertices: Int, triangles: Int, voxelMeters: Float?) {
    self.inputs = inputs
    self.vertices = vertices
    self.triangles = triangles
    self.voxelMeters = voxelMeters
  }
}

/// The window's model of the capture: the mesh shown, the fusion under way, and why
/// the last one failed. The mesh's triangles live beside the state, as the points do;
/// this says what they are.
public struct ViewerModel: Equatable, Sendable {
  /// The mesh the scene has; nil: none.
  public private(set) var shown: ModelSummary?
  /// What the fusion under way fuses; nil: none runs.
  public private(set) var fusing: ModelInputs?
  /// Why the last fusion failed, until another starts.
  public private(set) var failure: String?
  /// The voxel size the next fusion uses; nil: the automatic size (`FusionOptions`).
  public private(set) var voxelMeters: Float?

  public init() {}

  /// Whether the shown mesh was fused from other inputs than `current` (the view's
  /// now): the timeline window, the minimum confidence or the poses changed since.
  public func isStale(for current: ModelInputs?) -> Bool {
    guard let made = shown?.inputs else { return false }
    return made != current
  }

  mutating func apply(_ command: ModelCommand) {
    switch command {
    case .fuseStarted(let inputs):
      fusing = inputs
      failure = nil
    case .fused(let summary):
      fusing = nil
      shown = summary
    case .fuseFailed(let reason):
      fusing = nil
      failure = reason
    case .fuseCancelled:
      fusing = nil
    case .meshOpened(let summary):
      shown = summary
    case .setVoxel(let meters):
      voxelMeters = meters.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
    }
  }
}

/// Changes to `ViewerModel`.
public enum ModelCommand: Equatable, Sendable {
  /// A fusion of these inputs began.
  case fuseStarted(ModelInputs)
  /// It ended with this mesh, which the scene now has.
  case fused(ModelSummary)
  case fuseFailed(String)
  case fuseCancelled
  /// The document opened is a mesh file: its triangles are the scene's mesh.
  case meshOpened(ModelSummary)
  /// The voxel size of the next fusion, metres; nil (or not a positive number): the
  /// automatic size.
  case setVoxel(Float?)
}
