extension OptionTable {
  /// The options of `video` alone; it also takes the recording and cleaning options and
  /// most of `render`'s.
  static let video: [OptionRow] = [
    .value(
      "output", short: "o", "OUT", default: nil,
      "where to write (required): .mp4 (H.264), .webm (VP9), .mkv (lossless FFV1), .gif, or a"
        + " folder of numbered PNG pictures (a name ending in /, or an existing folder)",
      commands: ["video"], window: "Record › file name"),
    .flag(
      "timeline",
      "the cloud accumulating as the capture plays (the default for a recording)",
      commands: ["video"], window: "Record › timeline"),
    .value(
      "turntable", "SECONDS", default: "8 for a point-cloud file",
      "one orbit about the cloud's centre in this many seconds, every frame drawn; the last"
        + " video frame is the first again",
      commands: ["video"], window: "Record › turntable"),
    .value(
      "path", "POSES.txt", default: nil,
      "move the camera along this TUM trajectory (timestamp tx ty tz qx qy qz qw, camera to"
        + " world), interpolated between its poses at its own timing, every frame drawn",
      commands: ["video"]),
    .value(
      "speed", "X", default: "1: the recording's own rate",
      "play the timeline (or the path) this many times faster, 0.01 to 100", commands: ["video"]),
    .value(
      "fps", "N", default: "30", "video frames per second, 1 to 120", commands: ["video"]),
    .value(
      "mode", "up-to|frame|last:N", default: "up-to",
      "which frames the timeline draws: every frame up to the playhead, the playhead's frame"
        + " alone, or the last N frames",
      commands: ["video"], window: "Timeline › mode; M key"),
    .value(
      "camera", "orbit:AZIMUTH,ELEVATION[,DISTANCE]|capture|follow",
      default: "orbit: the view that fits the whole cloud",
      "a fixed orbit camera (angles in degrees, distance in metres from the cloud's centre; 0"
        + " or absent fits the cloud), the capture camera of the playhead's frame, or an orbit"
        + " camera behind and above the capture camera that follows it smoothly; a turntable"
        + " starts from the orbit",
      commands: ["video"], window: "Record › camera"),
    .flag(
      "side-by-side",
      "the playhead's colour image (its depth in false colour when it has none) beside the 3D"
        + " view, at the video's full height",
      commands: ["video"], window: "Record › side by side"),
  ]
}
