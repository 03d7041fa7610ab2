import CloudScrubCore

extension Record3DEXRRecording {
  /// Frame `index`'s time, intrinsics and pose (those of its file number), from the
  /// metadata alone: reads no image.
  ///
  /// - Throws: `Record3DError.frameOutOfRange` for an index outside `0..<frameCount`.
  public func frameInfo(at index: Int) throws -> FrameInfo {
    guard index >= 0, index < frameCount else {
      throw Record3DError(.frameOutOfRange(index: index, frameCount: frameCount), path: folder)
    }
    let number = numbers.fileNumbers[index]
    return FrameInfo(
      timestampSeconds: metadata.timestampSeconds(frame: number),
      intrinsics: metadata.intrinsics(frame: number),
      pose: CameraPose(worldFromCamera: metadata.worldFromCameraPoses[number], axes: .openGL))
  }
}
