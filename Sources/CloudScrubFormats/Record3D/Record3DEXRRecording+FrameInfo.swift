import CloudScrubCore

extension Record3DEXRRecording {
  /// Frame `index`'s time, intrinsics and pose, from the metadata alone: reads no image.
  ///
  /// - Throws: `Record3DError.frameOutOfRange` for an index outside `0..<frameCount`.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    guard index >= 0, index < frameCount else {
      throw Record3DError(.frameOutOfRange(index: index, frameCount: frameCount), path: folder)
    }
    return FrameInfo(
      timestampSeconds: timestampSeconds(frame: index), intrinsics: intrinsics(frame: index),
      pose: CameraPose(worldFromCamera: metadata.worldFromCameraPoses[index], axes: .openGL))
  }
}
