import CloudScrubCore
import Foundation

/// The export flags that clean the merged cloud, parsed into Core's `CleaningOptions`.
enum CleaningFlags {
  static let valueOptions = [
    "--crop": "crop", "--height-band": "height-band", "--voxel": "voxel", "--sor": "sor",
    "--radius-outlier": "radius-outlier",
  ]
  static let flags = ["--normals": "normals", "--dry-run": "dry-run"]

  static let help = """
      --crop XMIN,YMIN,ZMIN,XMAX,YMAX,ZMAX
                            keep points inside this box (world metres)
      --height-band MIN-MAX keep points whose height is in this range, along the
                            recording's up axis (y; z for ARKitScenes; y for PLY);
                            MIN,MAX too, negative numbers too (-1.5-0.8)
      --voxel SIZE_M        merge the points of each voxel into one (mean position
                            and colour, highest confidence)
      --sor K,STD           statistical outlier removal: drop points whose mean
                            distance to their K nearest neighbours (not counting
                            themselves) exceeds the mean by STD standard deviations
      --radius-outlier R_M,MIN_N
                            drop points with fewer than MIN_N other points within R_M
      --normals             estimate normals (20 neighbours), facing the capturing
                            camera (the origin for PLY input); written as nx ny nz
      --dry-run             print how many points each stage keeps; write nothing
    """

  static func options(_ parsed: ParsedArguments) throws -> CleaningOptions {
    var options = CleaningOptions()
    if let crop = parsed.value("crop") {
      let numbers = crop.split(separator: ",").compactMap {
        Float($0.trimmingCharacters(in: .whitespaces))
      }
      guard numbers.count == 6, numbers.allSatisfy(\.isFinite), numbers[0] <= numbers[3],
        numbers[1] <= numbers[4], numbers[2] <= numbers[5]
      else {
        throw UsageError(
          "--crop needs XMIN,YMIN,ZMIN,XMAX,YMAX,ZMAX with each MIN ≤ MAX, not '\(crop)'")
      }
      options.crop = CropBox(
        min: Point3(numbers[0], numbers[1], numbers[2]),
        max: Point3(numbers[3], numbers[4], numbers[5]))
    }
    if let band = parsed.value("height-band") {
      guard let (low, high) = RangeText.parse(band, as: Float.init), low.isFinite,
        high.isFinite, low <= high
      else {
        throw UsageError(
          "--height-band needs \(RangeText.forms) in metres with MIN ≤ MAX, not '\(band)'")
      }
      options.heightBandMeters = low...high
    }
    if let voxel = parsed.value("voxel") {
      guard let size = Float(voxel), size > 0, size.isFinite else {
        throw UsageError("--voxel needs a positive size in metres, not '\(voxel)'")
      }
      options.voxelSizeMeters = size
    }
    if let sor = parsed.value("sor") {
      let parts = sor.split(separator: ",")
      guard parts.count == 2, let k = Int(parts[0]), k > 0, let std = Double(parts[1]),
        std.isFinite
      else {
        throw UsageError("--sor needs K,STD (for example 20,2), not '\(sor)'")
      }
      options.statistical = StatisticalOutlierOptions(neighbours: k, stdRatio: std)
    }
    if let radius = parsed.value("radius-outlier") {
      let parts = radius.split(separator: ",")
      guard parts.count == 2, let r = Float(parts[0]), r > 0, let n = Int(parts[1]), n >= 0 else {
        throw UsageError("--radius-outlier needs R_M,MIN_N (for example 0.05,5), not '\(radius)'")
      }
      options.radius = RadiusOutlierOptions(radiusMeters: r, minNeighbours: n)
    }
    if parsed.has("normals") { options.normalNeighbours = 20 }
    return options
  }

  /// One header comment with the cleaning steps, or `nil` when there are none.
  static func describe(_ options: CleaningOptions) -> String? {
    var parts: [String] = []
    if let box = options.crop {
      parts.append(
        "crop \(box.min.x),\(box.min.y),\(box.min.z),\(box.max.x),\(box.max.y),\(box.max.z)")
    }
    if let band = options.heightBandMeters {
      let axis = options.worldUp == .y ? "" : " along \(options.worldUp.rawValue)"
      parts.append("height band \(band.lowerBound)-\(band.upperBound) m\(axis)")
    }
    if let size = options.voxelSizeMeters { parts.append("voxel \(size) m") }
    if let s = options.statistical { parts.append("sor \(s.neighbours),\(s.stdRatio)") }
    if let r = options.radius {
      parts.append("radius outliers \(r.radiusMeters),\(r.minNeighbours)")
    }
    if let k = options.normalNeighbours { parts.append("normals from \(k) neighbours") }
    return parts.isEmpty ? nil : "cleaning: " + parts.joined(separator: ", ")
  }
}
