import CloudScrubCore
import Foundation

/// The cleaning options (`OptionTable.cleaningRows`) that clean the merged cloud, parsed
/// into Core's `CleaningOptions`.
enum CleaningFlags {
  static func options(_ parsed: ParsedArguments) throws -> CleaningOptions {
    var options = CleaningOptions()
    let box = "XMIN,YMIN,ZMIN,XMAX,YMAX,ZMAX with each MIN ≤ MAX"
    if let n = try parsed.numbers("crop", count: 6, syntax: box, isValid: Self.cropIsValid)?
      .map({ Float($0) })
    {
      options.crop = CropBox(min: Point3(n[0], n[1], n[2]), max: Point3(n[3], n[4], n[5]))
    }
    options.heightBandMeters = try parsed.metresRange("height-band")
    options.voxelSizeMeters = try parsed.metres("voxel")
    let sorForm = "K,STD with K a whole number above 0 (for example 20,2)"
    if let sor = try parsed.numbers("sor", count: 2, syntax: sorForm, isValid: Self.sorIsValid) {
      options.statistical = StatisticalOutlierOptions(neighbours: Int(sor[0]), stdRatio: sor[1])
    }
    let radiusForm = "R_M,MIN_N with R_M above 0 and MIN_N a whole number (for example 0.05,5)"
    if let radius = try parsed.numbers(
      "radius-outlier", count: 2, syntax: radiusForm, isValid: Self.radiusIsValid)
    {
      options.radius = RadiusOutlierOptions(
        radiusMeters: Float(radius[0]), minNeighbours: Int(radius[1]))
    }
    if parsed.has("normals") { options.normalNeighbours = 20 }
    return options
  }

  private static func cropIsValid(_ n: [Double]) -> Bool {
    n[0] <= n[3] && n[1] <= n[4] && n[2] <= n[5]
  }

  private static func sorIsValid(_ numbers: [Double]) -> Bool {
    numbers[0] >= 1 && numbers[0] == numbers[0].rounded() && numbers[0] < 1e9
  }

  private static func radiusIsValid(_ numbers: [Double]) -> Bool {
    numbers[0] > 0 && Float(numbers[0]) > 0 && numbers[1] >= 0
      && numbers[1] == numbers[1].rounded() && numbers[1] < 1e9
  }

  /// Whether any cleaning step was asked for.
  static func anyStep(_ options: CleaningOptions) -> Bool {
    describe(options) != nil
  }

  /// One header comment with the cleaning steps, or `nil` when there are none.
  static func describe(_ options: CleaningOptions) -> String? {
    ExportJob.cleaningDescription(options)
  }
}
