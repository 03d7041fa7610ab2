import CloudScrubCore
import CloudScrubFormats
import CloudScrubSession
import Foundation

/// Open3D's multiway registration on the keyframes loop closure uses
/// (`bench/open3d_multiway.py`), for `bench drift`'s ghosting table.
extension DriftBenchmark {
  struct Multiway {
    /// Every frame's pose: the keyframes' as Open3D optimised them, the frames between
    /// them following as loop closure's do (`LoopClosure.interpolate`).
    var poses: [CameraPose]
    var seconds: Double
    var pairs: Int
    var version: String
  }

  /// Runs the peer on `source`'s keyframes, starting from the recorded poses; nil with
  /// the reason when it did not run.
  static func multiway(
    _ source: any RecordingSource, result: DriftAlignment.Result,
    options: CloudScrubCore.AlignmentOptions
  ) throws -> Result<Multiway, PeerFailure> {
    let recorded = result.originalPoses.map(\.worldFromOpenCVCamera)
    let start = TrackingStart.untrackedFrameCount(
      translations: result.originalPoses.map(\.position))
    let keyframes = LoopClosure.keyframes(timestamps: result.timestampsSeconds, from: start)
    guard keyframes.count > 1 else { return .failure(PeerFailure("Open3D multiway: no keyframes")) }
    let frames = try DriftAlignment.prepare(source, keyframes, options: options)
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("cloudscrub-multiway-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var entries: [[String: Any]] = []
    for (k, frame) in frames.enumerated() {
      let cloud = PointCloud(
        positions: frame.pointsInCamera.map { Point3($0.x, $0.y, $0.z) },
        normals: frame.normalsInCamera.map { Point3($0.x, $0.y, $0.z) })
      try PLYWriter.write(
        cloud, to: folder.appendingPathComponent("\(k).ply").path,
        options: PLYWriteOptions(attributes: .all))
      let pose = recorded[keyframes[k]]
      entries.append([
        "file": "\(k).ply",
        "pose": (0..<4).flatMap { row in (0..<4).map { pose[row, $0] } },
      ])
    }
    let voxel = Double(
      frames.first { !$0.pointsInCamera.isEmpty }.map { options.voxelSize(for: $0) } ?? 0.02)
    try JSONSerialization.data(withJSONObject: ["voxel": voxel, "frames": entries]).write(
      to: folder.appendingPathComponent("frames.json"))
    let peer = PythonPeer(script: "bench/open3d_multiway.py", name: "Open3D multiway")
    let printed: Data
    switch peer.output(arguments: ["--frames", folder.path]) {
    case .failure(let failure): return .failure(failure)
    case .success(let data): printed = data
    }
    guard let object = try? JSONSerialization.jsonObject(with: printed) as? [String: Any],
      let optimised = object["poses"] as? [[Double]], optimised.count == keyframes.count,
      optimised.allSatisfy({ $0.count == 16 })
    else { return .failure(PeerFailure("Open3D multiway: the script printed no poses")) }
    let corrections = zip(optimised, keyframes).map { values, index in
      Transform3D(rowMajor: values) * recorded[index].rigidInverse
    }
    let closed = LoopClosure.interpolate(
      corrections, at: keyframes, poses: recorded, timestamps: result.timestampsSeconds)
    var poses = result.originalPoses
    for index in poses.indices {
      let correction = closed[index] * recorded[index].rigidInverse
      poses[index].worldFromCamera = correction * poses[index].worldFromCamera
    }
    return .success(
      Multiway(
        poses: poses, seconds: object["seconds"] as? Double ?? 0,
        pairs: object["pairs"] as? Int ?? 0, version: object["version"] as? String ?? "?"))
  }
}
