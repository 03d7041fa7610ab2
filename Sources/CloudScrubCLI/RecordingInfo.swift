import CloudScrubCore

/// What `info` reports about a recording: from its description and every frame's time,
/// intrinsics and pose, without decoding images where the format allows.
package struct RecordingInfo {
  var path: String
  var description: RecordingDescription
  var frameCount: Int
  var firstFrame: FrameInfo?
  var durationSeconds: Double
  var trajectoryLengthMeters: Double
  var cameraBounds: (min: SIMD3<Double>, max: SIMD3<Double>)?
  /// How many leading frames were recorded before tracking started (`TrackingStart`).
  var untrackedFrames: Int
  /// Every frame's alignment error and time, when `info --alignment` measured them.
  var alignment: (errors: FrameAlignmentErrors, times: [Double])?
  /// The loops refinement closed and the ghosting before and after, with `alignment`.
  var refinement: RefinementQuality?

  init(path: String, source: any RecordingSource) throws {
    var infos: [FrameInfo] = []
    infos.reserveCapacity(source.frameCount)
    for index in 0..<source.frameCount {
      do {
        infos.append(try source.frameInfo(at: index))
      } catch {
        throw FrameLoadError(frameIndex: index, underlying: error)
      }
    }
    self.init(
      path: path, description: source.description, frameCount: source.frameCount, infos: infos)
  }

  /// What a recording's description and these frames' (or poses') infos say.
  init(path: String, description: RecordingDescription, frameCount: Int, infos: [FrameInfo]) {
    self.path = path
    self.description = description
    self.frameCount = frameCount
    firstFrame = infos.first
    durationSeconds = (infos.last?.timestampSeconds ?? 0) - (infos.first?.timestampSeconds ?? 0)
    let positions = infos.map(\.pose.position)
    untrackedFrames =
      frameCount > 0 ? TrackingStart.untrackedFrameCount(translations: positions) : 0
    trajectoryLengthMeters = zip(positions, positions.dropFirst()).reduce(0) { sum, pair in
      let d = pair.1 - pair.0
      return sum + (d * d).sum().squareRoot()
    }
    if let first = positions.first {
      var low = first
      var high = first
      for p in positions {
        low = pointwiseMin(low, p)
        high = pointwiseMax(high, p)
      }
      cameraBounds = (low, high)
    }
  }

  var json: JSON {
    let d = description
    func size(_ w: Int?, _ h: Int?) -> JSON {
      guard let w, let h else { return .null }
      return .object([("width", .int(w)), ("height", .int(h))])
    }
    let intrinsics: JSON =
      firstFrame.map { f in
        let k = f.intrinsics
        return .object([
          ("fx", .double(k.fx)), ("fy", .double(k.fy)), ("cx", .double(k.cx)),
          ("cy", .double(k.cy)),
          ("width", .int(k.width)), ("height", .int(k.height)),
        ])
      } ?? .null
    let bounds: JSON =
      cameraBounds.map { b in
        .object([
          ("min", .array([.double(b.min.x), .double(b.min.y), .double(b.min.z)])),
          ("max", .array([.double(b.max.x), .double(b.max.y), .double(b.max.z)])),
        ])
      } ?? .null
    return .object(
      [
        ("path", .string(path)),
        ("format", .string(d.format)),
        ("app", d.app.map(JSON.string) ?? .null),
        ("frames", .int(frameCount)),
        ("duration_seconds", .double(durationSeconds)),
        ("fps", d.framesPerSecond.map(JSON.double) ?? .null),
        ("depth", size(d.depthWidth, d.depthHeight)),
        ("color", size(d.colorWidth, d.colorHeight)),
        ("world_up", .string(d.worldUp.rawValue)),
        ("intrinsics", intrinsics),
        (
          "trajectory",
          .object([("length_meters", .double(trajectoryLengthMeters)), ("camera_bounds", bounds)])
        ),
        ("untracked_frames", .int(untrackedFrames)),
        ("notes", .array(d.notes.map(JSON.string))),
      ] + (alignment.map { [("alignment", Self.alignmentJSON($0.errors, times: $0.times))] } ?? [])
        + (refinement.map { [("refinement", $0.json)] } ?? []))
  }

  var text: String {
    let d = description
    var rows: [(String, String)] = [
      ("format", d.format + (d.app.map { " (\($0))" } ?? "")),
      ("frames", String(frameCount)),
      (
        "duration",
        "\(fixed(durationSeconds, 3)) s"
          + (d.framesPerSecond.map { " at \(fixed($0, 2)) fps" } ?? "")
      ),
      ("depth", "\(d.depthWidth)×\(d.depthHeight)"),
      ("colour", d.colorWidth.flatMap { w in d.colorHeight.map { "\(w)×\($0)" } } ?? "none"),
      ("world up", "+\(d.worldUp.rawValue)"),
    ]
    if let k = firstFrame?.intrinsics {
      rows.append(
        (
          "intrinsics",
          "fx \(fixed(k.fx, 2)) fy \(fixed(k.fy, 2)) cx \(fixed(k.cx, 2)) cy \(fixed(k.cy, 2)) "
            + "(for \(k.width)×\(k.height), frame 0)"
        ))
    }
    rows.append(("trajectory", "\(fixed(trajectoryLengthMeters, 3)) m"))
    if let b = cameraBounds {
      rows.append(
        (
          "camera in",
          "min (\(fixed(b.min.x, 3)), \(fixed(b.min.y, 3)), \(fixed(b.min.z, 3)))  "
            + "max (\(fixed(b.max.x, 3)), \(fixed(b.max.y, 3)), \(fixed(b.max.z, 3)))"
        ))
    }
    if untrackedFrames > 0 {
      rows.append(
        (
          "untracked",
          "frames 0-\(untrackedFrames - 1) (\(untrackedFrames)) have exactly zero translation: "
            + "recorded before tracking started (--skip-untracked leaves them out)"
        ))
    }
    if let alignment {
      let errors = alignment.errors
      let measured = errors.residualsMeters.compactMap { $0 }.count
      rows.append(
        (
          "alignment",
          "error median \(Self.millimetres(errors.medianMeters)), worst "
            + "\(Self.millimetres(errors.worstMeters)) (\(measured) of \(frameCount) frames measured)"
        ))
      let stretches = Self.stretchLines(errors, times: alignment.times)
      for line in stretches.isEmpty ? ["no stretch above twice the median"] : stretches {
        rows.append(("", line))
      }
    }
    rows += refinement?.lines.map { ($0.label, $0.text) } ?? []
    for (index, note) in d.notes.enumerated() { rows.append((index == 0 ? "notes" : "", note)) }
    let width = rows.map(\.0.count).max() ?? 0
    let lines = rows.map {
      "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1
    }
    return ([path] + lines).joined(separator: "\n")
  }

  static func millimetres(_ meters: Float?) -> String {
    meters.map { Self.fixed(Double($0) * 1000, 1) + " mm" } ?? "none"
  }

  /// The alignment errors as JSON: median, worst, per-frame values (null where not
  /// measured) and the worst stretches.
  static func alignmentJSON(_ errors: FrameAlignmentErrors, times: [Double]) -> JSON {
    func meters(_ value: Float?) -> JSON { value.map { JSON.double(Double($0)) } ?? .null }
    let first = times.first ?? 0
    return .object([
      ("median_meters", meters(errors.medianMeters)),
      ("worst_meters", meters(errors.worstMeters)),
      (
        "worst_stretches",
        .array(
          errors.worstStretches().map { stretch in
            .object([
              ("first_frame", .int(stretch.frames.lowerBound)),
              ("last_frame", .int(stretch.frames.upperBound)),
              (
                "first_seconds",
                .double(
                  (times.indices.contains(stretch.frames.lowerBound)
                    ? times[stretch.frames.lowerBound] : first) - first)
              ),
              (
                "last_seconds",
                .double(
                  (times.indices.contains(stretch.frames.upperBound)
                    ? times[stretch.frames.upperBound] : first) - first)
              ),
              ("worst_frame", .int(stretch.worstFrame)),
              ("worst_meters", .double(Double(stretch.worstMeters))),
              ("mean_meters", .double(Double(stretch.meanMeters))),
            ])
          })
      ),
      ("frames_meters", .array(errors.residualsMeters.map(meters))),
    ])
  }

  /// One line a stretch of frames whose alignment error stands out (worst first):
  /// frames, times, the worst frame and its error, the mean.
  static func stretchLines(_ errors: FrameAlignmentErrors, times: [Double]) -> [String] {
    errors.worstStretches().map { stretch in
      func time(_ frame: Int) -> String {
        times.indices.contains(frame)
          ? Self.fixed(times[frame] - (times.first ?? 0), 2) : "?"
      }
      let frames = stretch.frames
      return "frames \(frames.lowerBound)-\(frames.upperBound) "
        + "(\(time(frames.lowerBound))-\(time(frames.upperBound)) s): worst "
        + "\(Self.fixed(Double(stretch.worstMeters) * 1000, 1)) mm at frame "
        + "\(stretch.worstFrame), mean \(Self.fixed(Double(stretch.meanMeters) * 1000, 1)) mm"
    }
  }

  private func fixed(_ value: Double, _ digits: Int) -> String {
    Self.fixed(value, digits)
  }

  /// `value` with `digits` decimals, as the reports and the benchmarks print figures.
  package static func fixed(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }
}
