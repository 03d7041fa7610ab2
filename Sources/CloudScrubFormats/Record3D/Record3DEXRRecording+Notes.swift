import CloudScrubCore

extension Record3DEXRRecording {
  /// The choices the importer made that a user should know of, one line each.
  static func notes(_ metadata: Record3DMetadata, numbers: Record3DFrameNumbers, hasColor: Bool)
    -> [String]
  {
    var notes = numbers.notes(depthName: { "depth/\($0).exr" }, colorName: { "rgb/\($0).jpg" })
    if !metadata.hasDepthSize {
      notes.append(
        "metadata has no dw/dh: depth size taken as \(metadata.depthWidth)×\(metadata.depthHeight)")
    }
    notes += metadata.timingAndIntrinsicsNotes(frameCount: (numbers.fileNumbers.last ?? -1) + 1)
    if !hasColor {
      notes.append("no rgb/<n>.jpg files: frames have no colour")
    }
    if metadata.cameraType == 0 {
      notes.append("front TrueDepth camera (cameraType 0)")
    }
    return notes
  }
}

extension Record3DMetadata {
  /// What `info` says when the metadata lacks per-frame timestamps or intrinsics for
  /// some frames (both Record3D layouts then fall back to fps and K).
  func timingAndIntrinsicsNotes(frameCount: Int) -> [String] {
    var notes: [String] = []
    let timestamps = frameTimestampsSeconds.count
    if timestamps < frameCount {
      notes.append(
        "\(timestamps) frame timestamps for \(frameCount) frames: later frames timed by fps")
    }
    let coefficients = perFrameIntrinsics.count
    if coefficients < frameCount {
      notes.append(
        coefficients == 0
          ? "no per-frame intrinsics: K used for every frame"
          : "\(coefficients) per-frame intrinsics for \(frameCount) frames: K used for the rest")
    }
    return notes
  }
}
