import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Interoperability with pye57 (PyPI; Python bindings over libE57Format): a file the
/// writer makes reads in pye57 with the same points, and a file pye57 writes reads
/// here. Skipped, saying so, when `python3 -c "import pye57"` fails.
@Suite struct E57PyE57Tests {
  static let python: URL? = {
    for path in ["/usr/local/bin/python3", "/usr/bin/python3"] + pyenvPythons() {
      let url = URL(fileURLWithPath: path)
      guard FileManager.default.isExecutableFile(atPath: path) else { continue }
      if let result = try? CommandRunner.run(
        executable: url, ["-c", "import pye57"], timeoutSeconds: 120), result.status == 0
      {
        return url
      }
    }
    return nil
  }()

  static func pyenvPythons() -> [String] {
    let root = NSHomeDirectory() + "/.pyenv/versions"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    return ["/root/.pyenv/shims/python3"]
      + versions.sorted().map { root + "/" + $0 + "/bin/python3" }
  }

  static var available: Bool { python != nil }

  func runPython(_ script: String, _ arguments: [String]) throws -> String {
    let python = try #require(Self.python)
    let result = try CommandRunner.run(
      executable: python, ["-c", script] + arguments, timeoutSeconds: 300)
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput
  }

  @Test(.enabled(if: available, "pye57 is not installed (pip install pye57): skipped"))
  func ourFileReadsInPyE57WithTheSamePoints() throws {
    var cloud = E57WriterTests.helix
    cloud.attributes = [
      PointAttribute(name: "frame", values: .uint32((0..<cloud.count).map { UInt32($0 % 3) }))
    ]
    let poses = [
      Transform3D.identity,
      Transform3D(axisAngle: SIMD3(0, 0, 0.7), translation: SIMD3(1, -2, 0.5)),
      Transform3D(axisAngle: SIMD3(0.3, -0.2, 0.1), translation: SIMD3(0, 0, 4)),
    ]
    let scans = E57Scan.perFrame(cloud) { poses[$0] }
    let url = try E57WriterTests.folder().appendingPathComponent("ours.e57")
    try E57Writer.write(
      scans: scans, provenance: E57Provenance(software: "CloudScrub test"), to: url)
    let script = """
      import sys, pye57, numpy as np
      e = pye57.E57(sys.argv[1])
      print(e.scan_count, e.root["e57LibraryVersion"].value())
      for i in range(e.scan_count):
          d = e.read_scan(i, colors=True, transform=True)
          for row in zip(d["cartesianX"], d["cartesianY"], d["cartesianZ"],
                         d["colorRed"], d["colorGreen"], d["colorBlue"]):
              print("%.7g %.7g %.7g %d %d %d" % row)
      """
    let lines = try runPython(script, [url.path]).split(separator: "\n")
    try #require(lines.count == 1 + cloud.count)
    #expect(lines[0] == "3 CloudScrub test")
    // pye57 gives each scan's points in world coordinates, frame by frame.
    let worldOrder = (0..<3).flatMap { frame in (0..<cloud.count).filter { $0 % 3 == frame } }
    var worst: Float = 0
    for (line, index) in zip(lines.dropFirst(), worldOrder) {
      let fields = line.split(separator: " ")
      let p = cloud.positions[index]
      let c = try #require(cloud.colors?[index])
      worst = max(worst, abs(Float(fields[0])! - p.x), abs(Float(fields[1])! - p.y))
      worst = max(worst, abs(Float(fields[2])! - p.z))
      #expect(fields[3...].map { UInt8($0) } == [c.r, c.g, c.b])
    }
    #expect(worst < 1e-5)
  }

  @Test(.enabled(if: available, "pye57 is not installed (pip install pye57): skipped"))
  func aFileWrittenByPyE57ReadsHere() throws {
    // 3 000 points, every 7th marked invalid (state 2) and every 11th direction only
    // (state 1); a pose turned 90° about z and moved by (1, 2, 3).
    let script = """
      import sys, numpy as np, pye57
      n = 3000
      i = np.arange(n)
      state = np.zeros(n, dtype=np.int8); state[i % 7 == 0] = 2; state[i % 11 == 0] = 1
      d = {"cartesianX": i * 0.001, "cartesianY": np.sin(i * 0.01), "cartesianZ": -i * 0.002,
           "colorRed": (i % 256).astype(np.uint8), "colorGreen": ((i // 256) % 256).astype(np.uint8),
           "colorBlue": np.full(n, 9, dtype=np.uint8), "intensity": (i % 100) / 100.0,
           "cartesianInvalidState": state}
      e = pye57.E57(sys.argv[1], mode="w")
      h = np.sqrt(0.5)
      e.write_scan_raw(d, name="written by pye57", rotation=np.array([h, 0, 0, h]),
                       translation=np.array([1.0, 2.0, 3.0]))
      e.close()
      """
    let path = try E57WriterTests.folder().appendingPathComponent("pye57.e57").path
    _ = try runPython(script, [path])
    let contents = try E57Reader.contents(of: path)
    let kept = (0..<3000).filter { $0 % 7 != 0 && $0 % 11 != 0 }
    try #require(contents.cloud.count == kept.count)
    #expect(contents.scans.map(\.name) == ["written by pye57"])
    #expect(contents.scans[0].recordCount == 3000)
    let intensity = try #require(contents.cloud.attribute(named: "intensity"))
    var worst = 0.0
    for (k, i) in kept.enumerated() {
      // pye57 stores single-precision coordinates; (x, y, z) ↦ (−y, x, z) + (1, 2, 3).
      let x = Double(Float(Double(i) * 0.001))
      let y = Double(Float(sin(Double(i) * 0.01)))
      let z = Double(Float(Double(-i) * 0.002))
      let p = contents.cloud.positions[k]
      worst = max(worst, abs(Double(p.x) - (1 - y)), abs(Double(p.y) - (2 + x)))
      worst = max(worst, abs(Double(p.z) - (3 + z)))
      #expect(contents.cloud.colors?[k] == RGB8(UInt8(i % 256), UInt8((i / 256) % 256), 9))
      #expect(abs(intensity.values.double(at: k) - Double(i % 100) / 100) < 1e-6)
    }
    #expect(worst < 1e-5)
  }
}
