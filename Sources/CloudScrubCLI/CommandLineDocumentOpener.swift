import CloudScrubApp
import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Opens files for the window with the command line's own readers, and exports from
/// the window through the same steps as `cloudscrub export`.
struct CommandLineDocumentOpener: ViewerDocumentOpener {
  func open(_ path: String) throws -> ViewerDocument {
    if path == ViewCommand.samplePath {
      let source = SyntheticRecordingSource(options: SyntheticRecordingOptions(frameCount: 60, depthNoiseMeters: 0.002))
      let loader = RecordingLoader(source: source, decoder: TurboJPEGDecoder())
      return ViewerDocument(
        path: "sample", load: StreamingLoad(recording: loader), recording: source, decoder: TurboJPEGDecoder(),
        summary: "synthetic sample recording, 60 frames")
    }
    switch try InputLoader.open(path) {
    case .cloud(let input):
      return ViewerDocument(
        path: path, load: StreamingLoad(cloud: input.cloud), recording: nil, decoder: nil,
        summary: "PLY \(input.header.format.rawValue), \(input.cloud.count) points")
    case .recording(let recordingPath, let source):
      let loader = RecordingLoader(source: source, decoder: TurboJPEGDecoder())
      let d = source.description
      return ViewerDocument(
        path: recordingPath, load: StreamingLoad(recording: loader), recording: source, decoder: TurboJPEGDecoder(),
        summary: "\(d.app ?? d.format), \(source.frameCount) frames, depth \(d.depthWidth)×\(d.depthHeight)")
    }
  }

  func export(_ request: WindowExportRequest) throws -> String {
    let path = request.document.path
    let output = request.outputPath
    guard !output.isEmpty else { throw UsageError("give a file name to export to") }
    if request.document.recording == nil && path != "sample" {
      // A PLY input: the same as 'cloudscrub export PATH -o OUT', from the file.
      try ExportCommand.run([path, "-o", output])
      return "wrote \(output)"
    }
    let store = request.content.store
    let frames = request.visibleFrames.clamped(to: 0...max(0, request.content.frameCount - 1))
    let range = store.frameRanges[frames.lowerBound]..<store.frameRanges[frames.upperBound + 1]
    let minimum = request.minConfidence.rawValue
    let kept = range.filter { store.confidence[$0] >= minimum }
    let cloud = store.cloud().subset(indices: kept)
    let frameIndices = Array(request.content.frameIndices[frames])
    var unprojection = UnprojectionOptions()
    unprojection.minConfidence = request.minConfidence
    let selection = FrameSelection(range: (frameIndices.first ?? 0)...(frameIndices.last ?? 0))
    var options = try ExportCommand.writeOptions(try ParsedArguments([path], spec: ExportCommand.spec), source: path)
    options.comments.append(ExportCommand.describe(selection, unprojection, frames: frameIndices))
    try PLYWriter.write(
      cloud, to: output, options: options, inputs: [path] + (try ExportCommand.recordingFiles(path)))
    return "wrote \(cloud.count) points of frames \(frameIndices.first ?? 0)–\(frameIndices.last ?? 0) to \(output)"
  }
}
