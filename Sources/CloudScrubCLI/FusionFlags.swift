import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// The fusion options (`--voxel` or `--fuse-voxel`, `--truncation`, `--min-piece`) and
/// the fusion they ask for, which `mesh` writes as a mesh and `export --fuse` as points.
enum FusionFlags {
  /// Fuses the recording at `path` as the recording and fusion options say, with a
  /// progress line, and says what it made on standard error.
  ///
  /// - Parameter voxelOption: the option that gives the voxel size (`voxel` for `mesh`,
  ///   `fuse-voxel` for `export --fuse`).
  static func fuse(_ parsed: ParsedArguments, path: String, voxelOption: String) throws
    -> (result: RecordingFusion.Result, path: String, source: any RecordingSource)
  {
    var options = FusionOptions()
    options.voxelSizeMeters = try parsed.metres(voxelOption)
    options.truncationMeters = try parsed.metres("truncation")
    options.minPieceTriangles = try parsed.count("min-piece", atLeast: 0) ?? 0
    let (recordingPath, recorded) = try CommandInput.recording(
      path, poses: parsed.value("poses"), needs: "fusion needs a recording's depth frames")
    let (source, selection) = try RecordingFlags.frames(
      parsed, recorded: recorded, path: recordingPath)
    let fusion = RecordingFusion(
      loader: InputLoader.loader(
        source, selection: selection, unprojection: try RecordingFlags.unprojection(parsed)),
      options: options)
    let progress = Terminal.progress("fusing \(recordingPath)")
    let result = try fusion.run { done, total in
      progress?.update(Double(done) / Double(total))
    }
    progress?.finish()
    Terminal.error(
      String(
        format:
          "fused %d frames at %.4g m voxels (truncation %.4g m, %d blocks) in %.2f s"
          + " (%.2f s integrating, %.2f s waiting for decoded frames)",
        result.frameIndices.count, result.voxelSizeMeters, result.truncationMeters,
        result.blocks, result.waitingSeconds + result.integrationSeconds,
        result.integrationSeconds, result.waitingSeconds)
        + String(format: "; surface extracted in %.2f s", result.extractionSeconds))
    return (result, recordingPath, source)
  }
}
