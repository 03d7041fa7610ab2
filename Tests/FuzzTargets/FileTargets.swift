import CloudScrubCore
import CloudScrubFormats
import Foundation

/// Targets for formats that are one file: PLY, `.csrec`, LZFSE, `.r3d`, Record3D's
/// metadata and TUM trajectories (`--poses`).
enum FileTargets {
  static let all: [FuzzTarget] = [ply, csrec, lzfse, r3d, record3DMetadata, tumTrajectory]

  /// Opens a recording the way `info` and `export` do, then reads and unprojects up to
  /// `limit` frames.
  static func exercise(_ source: any RecordingSource, limit: Int = 4) {
    _ = source.description
    for index in 0..<min(source.frameCount, limit) {
      _ = try? source.frameInfo(at: index)
      guard let frame = try? source.frame(at: index) else { continue }
      _ = try? Unprojector.unproject(frame, decoder: TurboJPEGDecoder())
    }
  }

  static let ply = FuzzTarget(
    name: "ply", maxLength: 1 << 16,
    run: { bytes in _ = try? PLYReader.read(data: bytes) },
    seeds: {
      let small = SyntheticCloud.scene(count: 20, normals: true)
      return PLYFormat.allCases.compactMap { format in
        try? PLYWriter.encode(small, options: PLYWriteOptions(format: format, attributes: .all))
      }
    })

  static let csrec = FuzzTarget(
    name: "csrec", maxLength: 1 << 20,
    run: { bytes in
      let path = Scratch.folder + "/input.csrec"
      Scratch.write(bytes, to: path)
      guard let recording = try? CloudScrubRecording(path: path) else { return }
      exercise(recording)
    },
    seeds: {
      let path = Scratch.folder + "/seed.csrec"
      guard let writer = try? CloudScrubRecordingWriter(path: path) else { return [] }
      let source = Scratch.synthetic()
      for index in 0..<source.frameCount {
        guard let frame = try? source.frame(at: index) else { continue }
        try? writer.append(frame)
      }
      try? writer.finish()
      return [Scratch.read(path)]
    })

  static let lzfse = FuzzTarget(
    name: "lzfse", maxLength: 1 << 16,
    run: { bytes in _ = try? LZFSE.decode(bytes) },
    // The stored-block stream the `.r3d` writer makes; the script adds the encoded
    // vectors in Tests/CloudScrubFormatsTests/Fixtures/lzfse.
    seeds: { [Array("bvx-".utf8) + [4, 0, 0, 0] + Array("abcd".utf8) + Array("bvx$".utf8)] })

  static let r3d = FuzzTarget(
    name: "r3d", maxLength: 1 << 20,
    run: { bytes in
      let path = Scratch.folder + "/input.r3d"
      Scratch.write(bytes, to: path)
      guard let recording = try? R3DRecording(path: path) else { return }
      exercise(recording)
    },
    seeds: {
      let path = Scratch.folder + "/seed.r3d"
      try? R3DWriter().write(Scratch.synthetic(), to: path)
      return [Scratch.read(path)]
    })

  static let record3DMetadata = FuzzTarget(
    name: "record3d-metadata", maxLength: 1 << 16,
    run: { bytes in
      guard let metadata = try? Record3DMetadata(json: bytes, path: "metadata.json") else {
        return
      }
      for index in [0, 1, metadata.worldFromCameraPoses.count] {
        _ = metadata.timestampSeconds(frame: index)
        _ = metadata.intrinsics(frame: index)
      }
    },
    seeds: {
      [
        Array(
          (#"{"w": 1440, "h": 1920, "dw": 192, "dh": 256, "fps": 60, "cameraType": 1, "#
            + #""K": [1350, 0, 0, 0, 1350, 0, 718, 962, 1], "#
            + #""poses": [[0, 0, 0, 1, 0, 0, 0], [0.1, 0, 0, 0.99, 0.01, 0, 0]], "#
            + #""initPose": [0, 0, 0, 1, 0, 0, 0], "frameTimestamps": [0, 0.0167], "#
            + #""perFrameIntrinsicCoeffs": [[1350, 1350, 718, 962]]}"#).utf8)
      ]
    })

  /// `--poses`: the trajectory parsed as `export` reads it; a short one then replaces
  /// a synthetic recording's poses and its frames are unprojected with them, and is
  /// written out again.
  static let tumTrajectory = FuzzTarget(
    name: "tum-trajectory", maxLength: 1 << 16,
    run: { bytes in
      guard let trajectory = try? bytes.withUnsafeBytes({ try TUMTrajectory.parse($0) }) else {
        return
      }
      _ = TUMTrajectory.text(trajectory)
      guard trajectory.count <= 4 else { return }
      let source = Scratch.rendered(frames: trajectory.count)
      guard let replaced = try? PosesReplacedRecording(source, poses: trajectory.poses) else {
        return
      }
      exercise(replaced)
    },
    seeds: {
      let source = Scratch.synthetic(frames: 3)
      let poses = (0..<source.frameCount).compactMap { try? source.frameInfo(at: $0).pose }
      let times = (0..<source.frameCount).map { source.timestampSeconds(at: $0) }
      return [
        Array(TUMTrajectory.text(Trajectory(timestampsSeconds: times, poses: poses)).utf8),
        Array("0.5,1,2,3,0,0,0.7071068,0.7071068\r\n# camera axes: openCV\n".utf8),
      ]
    })
}
