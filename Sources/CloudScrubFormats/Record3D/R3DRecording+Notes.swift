import CloudScrubCore

extension R3DRecording {
  /// The depth size of an old file without `dw`/`dh`, from the byte count of its
  /// decompressed `rgbd/0.depth` (4 bytes a sample), or nil when nothing fits.
  ///
  /// Tries the sizes Record3D has recorded, LiDAR 256×192 and TrueDepth 640×480, then
  /// any size with the colour image's aspect ratio; each is turned to the colour
  /// image's orientation (portrait colour gives 192×256), because depth and colour
  /// cover the same field of view.
  static func inferDepthSize(byteCount: Int, colorWidth: Int, colorHeight: Int) -> (Int, Int)? {
    guard byteCount > 0, byteCount % 4 == 0 else { return nil }
    let samples = byteCount / 4
    let portrait = colorHeight > colorWidth
    for (long, short) in [(256, 192), (640, 480)] where long * short == samples {
      return portrait ? (short, long) : (long, short)
    }
    let aspect = Double(colorWidth) / Double(colorHeight)
    let width = Int((Double(samples) * aspect).squareRoot().rounded())
    guard width > 0, samples % width == 0 else { return nil }
    let height = samples / width
    guard abs(Double(width) / Double(height) - aspect) < 0.01 * aspect,
      ImageSizeLimits.depthProblem(width: width, height: height) == nil
    else { return nil }
    return (width, height)
  }

  /// The choices the importer made that a user should know of, one line each.
  static func notes(
    _ metadata: Record3DMetadata, numbers: Record3DFrameNumbers,
    depthSizeInferredFrom inferredBytes: Int?, hasColor: Bool, hasConfidence: Bool,
    depthSize: (Int, Int)
  ) -> [String] {
    var notes = numbers.notes(
      depthName: { "rgbd/\($0).depth" }, colorName: { "rgbd/\($0).jpg" })
    if let inferredBytes {
      notes.append(
        "metadata has no dw/dh: depth size \(depthSize.0)×\(depthSize.1) inferred from "
          + "rgbd/\(numbers.fileNumbers.first ?? 0).depth (\(inferredBytes) bytes), "
          + "in the colour image's orientation")
    }
    notes += metadata.timingAndIntrinsicsNotes(frameCount: (numbers.fileNumbers.last ?? -1) + 1)
    if !hasColor { notes.append("no rgbd/<n>.jpg entries: frames have no colour") }
    if !hasConfidence { notes.append("no rgbd/<n>.conf entries: frames have no confidence") }
    // Record3D's own SDK numbers its device types TrueDepth 0, LiDAR 1.
    if metadata.cameraType == 0 { notes.append("front TrueDepth camera (cameraType 0)") }
    return notes
  }
}
