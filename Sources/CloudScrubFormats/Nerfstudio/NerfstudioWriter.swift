import CloudScrubCore
import Foundation

/// Writes any recording as a nerfstudio-style folder: `images/frame_NNNNN.jpg`,
/// `depth/frame_NNNNN.png` (16-bit millimetres) and `transforms.json` with each frame's
/// 4×4 camera-to-world `transform_matrix` in OpenGL camera axes, numbered from
/// `frame_00001` as nerfstudio's processing does. Intrinsics (for the image's size) are
/// written once at the top level when every frame has the same, else per frame.
///
/// Used by tests and benchmarks to build captures from synthetic recordings.
public struct NerfstudioWriter: Sendable {
  public var encoder: TurboJPEGEncoder

  public init(encoder: TurboJPEGEncoder = TurboJPEGEncoder(quality: 90)) {
    self.encoder = encoder
  }

  /// Writes every frame of `source` into `folder` (created when absent).
  ///
  /// - Throws: what reading a frame throws; `CaptureFolderError.missingFile` for a frame
  ///   without a colour image the layout can hold (nerfstudio needs one a frame); an
  ///   error when a file cannot be written.
  public func write(_ source: any RecordingSource, to folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var entries: [(image: String, depth: String, intrinsics: CameraIntrinsics, rows: [[Double]])] =
      []
    for index in 0..<source.frameCount {
      let frame = try source.frame(at: index)
      let name = String(format: "frame_%05d", index + 1)
      guard let color = frame.color,
        let jpeg = try CaptureFolderFiles.jpegBytes(color, encoder: encoder)
      else {
        throw CaptureFolderError(.missingFile(what: "colour image of frame \(index)"), path: folder)
      }
      let size = try TurboJPEGDecoder().imageSize(of: jpeg)
      let image = "images/\(name).jpg"
      let depth = "depth/\(name).png"
      try CaptureFolderFiles.write(jpeg, to: path(folder, image))
      try CaptureFolderFiles.write(
        try CaptureFolderFiles.encodeMillimeters(frame.depth), to: path(folder, depth))
      let worldFromGLCamera = frame.pose.worldFromOpenCVCamera * CameraAxes.openGL.openCVFromSelf
      let m = worldFromGLCamera.rowMajor
      entries.append(
        (
          image, depth, frame.intrinsics.scaled(toWidth: size.width, height: size.height),
          [Array(m[0..<4]), Array(m[4..<8]), Array(m[8..<12]), Array(m[12..<16])]
        ))
    }
    let shared =
      entries.first.map { first in entries.allSatisfy { $0.intrinsics == first.intrinsics } }
      ?? true
    var top: [String: Any] = ["camera_model": "OPENCV", "k1": 0, "k2": 0, "p1": 0, "p2": 0]
    if shared, let k = entries.first?.intrinsics { top.merge(Self.keys(k)) { _, new in new } }
    top["frames"] = entries.map { entry -> [String: Any] in
      var object: [String: Any] = [
        "file_path": entry.image, "depth_file_path": entry.depth,
        "transform_matrix": entry.rows,
      ]
      if !shared { object.merge(Self.keys(entry.intrinsics)) { _, new in new } }
      return object
    }
    let data = try JSONSerialization.data(
      withJSONObject: top, options: [.sortedKeys, .prettyPrinted])
    try CaptureFolderFiles.write(Array(data), to: path(folder, NerfstudioRecording.transformsName))
  }

  static func keys(_ k: CameraIntrinsics) -> [String: Any] {
    ["fl_x": k.fx, "fl_y": k.fy, "cx": k.cx, "cy": k.cy, "w": k.width, "h": k.height]
  }

  private func path(_ folder: String, _ name: String) -> String {
    (folder as NSString).appendingPathComponent(name)
  }
}
