/// Which of a Record3D export's numbered files make frames: every number that has a
/// pose and whose depth file (and colour file, when the export has colour) exists.
///
/// Record3D numbers its files after the poses (`depth/<n>.exr`, `rgbd/<n>.depth`), and
/// real exports lack some numbers in the middle. A frame keeps its file number, which
/// indexes its pose, timestamp and intrinsics in the metadata; frame indices run over
/// the numbers present, without gaps.
struct Record3DFrameNumbers: Equatable, Sendable {
  /// Each frame's file number, ascending.
  var fileNumbers: [Int]
  /// Numbers below the pose count without a depth file.
  var missingDepth: [Int]
  /// Numbers below the pose count with a depth file but no colour file (in an export
  /// that has colour).
  var missingColor: [Int]
  /// How many depth files are numbered past the last pose (ignored).
  var depthFilesPastPoses: Int
  /// The number of poses in the metadata.
  var poseCount: Int

  /// - Parameters:
  ///   - depth: the numbers with a depth file.
  ///   - color: the numbers with a colour file, or nil for an export without colour.
  ///   - poseCount: how many poses the metadata has.
  init(depth: Set<Int>, color: Set<Int>?, poseCount: Int) {
    self.poseCount = poseCount
    var numbers: [Int] = []
    var noDepth: [Int] = []
    var noColor: [Int] = []
    for number in 0..<poseCount {
      if !depth.contains(number) {
        noDepth.append(number)
      } else if let color, !color.contains(number) {
        noColor.append(number)
      } else {
        numbers.append(number)
      }
    }
    fileNumbers = numbers
    missingDepth = noDepth
    missingColor = noColor
    depthFilesPastPoses = depth.filter { $0 >= poseCount }.count
  }

  /// The canonical numbers among file names `<prefix><n><suffix>` (`05.exr` or `+5.exr`
  /// is not file 5).
  static func numbers(in names: [String], prefix: String = "", suffix: String) -> Set<Int> {
    Set(
      names.compactMap { name -> Int? in
        guard name.hasPrefix(prefix), name.hasSuffix(suffix),
          name.count > prefix.count + suffix.count
        else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard let number = Int(digits), number >= 0, "\(number)" == digits else { return nil }
        return number
      })
  }

  /// What `info` says about the numbers: the missing ones by name, and ignored files.
  ///
  /// - Parameters:
  ///   - depthName: the depth file's name for a number (`depth/7.exr`).
  ///   - colorName: the colour file's name for a number (`rgb/7.jpg`).
  func notes(depthName: (Int) -> String, colorName: (Int) -> String) -> [String] {
    var notes: [String] = []
    if !missingDepth.isEmpty {
      notes.append(
        "\(Self.count(missingDepth.count, "pose")) without a depth file, left out: frame "
          + "\(Self.plural(missingDepth.count, "number")) \(Self.list(missingDepth)) "
          + "(no \(depthName(missingDepth[0]))\(missingDepth.count > 1 ? " …" : ""))")
    }
    if !missingColor.isEmpty {
      notes.append(
        "\(Self.count(missingColor.count, "pose")) without a colour file, left out: frame "
          + "\(Self.plural(missingColor.count, "number")) \(Self.list(missingColor)) "
          + "(no \(colorName(missingColor[0]))\(missingColor.count > 1 ? " …" : ""))")
    }
    if depthFilesPastPoses > 0 {
      notes.append(
        "\(Self.count(depthFilesPastPoses, "depth file")) numbered past the last of "
          + "\(Self.count(poseCount, "pose")) (\(depthName(poseCount)) on): ignored")
    }
    if fileNumbers.count < poseCount {
      notes.append(
        "\(fileNumbers.count) frames of \(poseCount) poses; each keeps its file number's "
          + "pose, time and intrinsics")
    }
    return notes
  }

  /// At most 20 numbers, then how many more.
  private static func list(_ numbers: [Int]) -> String {
    let shown = numbers.prefix(20).map(String.init).joined(separator: ", ")
    return numbers.count > 20 ? shown + " and \(numbers.count - 20) more" : shown
  }

  private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(plural(n, noun))" }

  private static func plural(_ n: Int, _ noun: String) -> String { n == 1 ? noun : noun + "s" }
}
