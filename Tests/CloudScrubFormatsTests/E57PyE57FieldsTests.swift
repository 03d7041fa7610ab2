import CloudScrubCore
import Foundation
import TestSupport
import Testing

@testable import CloudScrubFormats

/// Normals and attributes with libE57Format (through pye57's bindings): our
/// `nor:normalX/Y/Z` and `cloudscrub:` fields read there with the values written, and
/// a file whose normals libE57Format writes as CloudCompare does reads here. Skipped,
/// saying so, when `python3 -c "import pye57"` fails.
@Suite struct E57PyE57FieldsTests {
  static var available: Bool { E57PyE57Tests.available }

  @Test(.enabled(if: available, "pye57 is not installed (pip install pye57): skipped"))
  func ourNormalsAndAttributesReadInLibE57() throws {
    let url = try E57WriterTests.folder().appendingPathComponent("fields.e57")
    try E57Writer.write(
      cloud: E57NormalsAttributesTests.cloud, provenance: E57Provenance(), to: url)
    let script = """
      import sys, numpy as np, pye57
      from pye57 import libe57
      e = pye57.E57(sys.argv[1])
      h = e.get_header(0)
      n = h.point_count
      print(" ".join(h.point_fields))
      names = ["nor:normalX", "nor:normalY", "nor:normalZ", "cloudscrub:confidence",
               "cloudscrub:frame", "cloudscrub:offset", "cloudscrub:tilt"]
      arrays = {k: np.zeros(n, "d") for k in names}
      buffers = libe57.VectorSourceDestBuffer()
      for k in names:
          buffers.append(libe57.SourceDestBuffer(e.image_file, k, arrays[k], n, True, True))
      reader = h.points.reader(buffers)
      reader.read()
      reader.close()
      for i in range(n):
          print("%.7g %.7g %.7g %d %d %d %d" % tuple(arrays[k][i] for k in names))
      d = e.read_scan(0, colors=True, transform=True)
      print(len(d["cartesianX"]), int(d["colorRed"][0]))
      """
    let lines = try E57PyE57Tests().runPython(script, [url.path]).split(separator: "\n")
    try #require(lines.count == 6)
    #expect(
      lines[0]
        == "cartesianX cartesianY cartesianZ colorRed colorGreen colorBlue nor:normalX"
        + " nor:normalY nor:normalZ cloudscrub:confidence cloudscrub:frame cloudscrub:offset"
        + " cloudscrub:tilt cloudscrub:opacity cloudscrub:time cloudscrub:id cloudscrub:count"
        + " cartesianInvalidState")
    #expect(
      Array(lines[1...4]) == [
        "0 0 1 0 0 -32768 -128", "0.6 0.8 0 1 7 -1 -1", "-1 0 0 2 4294967295 0 0",
        "0 -0.6 0.8 2 12 32767 127",
      ])
    #expect(lines[5] == "4 255")
  }

  /// libE57Format writes three points with `nor:normalX/Y/Z` (single floats in −1…1,
  /// the extension declared as CloudCompare declares it) in a scan turned 90° about z;
  /// the reader turns the normals into the world with the points.
  @Test(.enabled(if: available, "pye57 is not installed (pip install pye57): skipped"))
  func normalsThatLibE57WritesReadHereTurnedByThePose() throws {
    let url = try E57WriterTests.folder().appendingPathComponent("cloudcompare-like.e57")
    let script = """
      import sys, math, numpy as np, pye57
      from pye57 import libe57
      e = pye57.E57(sys.argv[1], mode="w")
      imf = e.image_file
      imf.extensionsAdd("nor", "http://www.libe57.org/E57_NOR_surface_normals.txt")
      scan = libe57.StructureNode(imf)
      scan.set("guid", libe57.StringNode(imf, "{00000000-0000-0000-0000-000000000001}"))
      scan.set("name", libe57.StringNode(imf, "normals"))
      pose = libe57.StructureNode(imf)
      rotation = libe57.StructureNode(imf)
      for key, value in zip("wxyz", (math.sqrt(0.5), 0, 0, math.sqrt(0.5))):
          rotation.set(key, libe57.FloatNode(imf, value))
      pose.set("rotation", rotation)
      translation = libe57.StructureNode(imf)
      for key, value in zip("xyz", (10, 0, 0)):
          translation.set(key, libe57.FloatNode(imf, value))
      pose.set("translation", translation)
      scan.set("pose", pose)
      proto = libe57.StructureNode(imf)
      for axis in "XYZ":
          proto.set("cartesian" + axis, libe57.FloatNode(imf, 0.0, libe57.E57_SINGLE, -10, 10))
      for axis in "XYZ":
          proto.set("nor:normal" + axis, libe57.FloatNode(imf, 0.0, libe57.E57_SINGLE, -1, 1))
      points = libe57.CompressedVectorNode(imf, proto, libe57.VectorNode(imf, True))
      scan.set("points", points)
      e.data3d.append(scan)
      data = {
          "cartesianX": [1, 0, 0], "cartesianY": [0, 2, 0], "cartesianZ": [0, 0, 3],
          "nor:normalX": [1, 0, 0], "nor:normalY": [0, 0.6, 0], "nor:normalZ": [0, 0.8, 1],
      }
      arrays = {k: np.array(v, "d") for k, v in data.items()}
      buffers = libe57.VectorSourceDestBuffer()
      for k, a in arrays.items():
          buffers.append(libe57.SourceDestBuffer(imf, k, a, 3, True, True))
      writer = points.writer(buffers)
      writer.write(3)
      writer.close()
      e.close()
      """
    _ = try E57PyE57Tests().runPython(script, [url.path])
    let cloud = try E57Reader.read(url: url)
    // 90° about z: (x, y, z) → (−y, x, z), then 10 along x.
    let positions = [Point3(10, 1, 0), Point3(8, 0, 0), Point3(10, 0, 3)]
    let normals = [Point3(0, 1, 0), Point3(-0.6, 0, 0.8), Point3(0, 0, 1)]
    try #require(cloud.count == 3)
    let got = try #require(cloud.normals)
    for k in 0..<3 {
      let p = cloud.positions[k]
      #expect(abs(p.x - positions[k].x) < 1e-5 && abs(p.y - positions[k].y) < 1e-5)
      #expect(abs(p.z - positions[k].z) < 1e-5)
      #expect(abs(got[k].x - normals[k].x) < 1e-6 && abs(got[k].y - normals[k].y) < 1e-6)
      #expect(abs(got[k].z - normals[k].z) < 1e-6)
    }
    #expect(cloud.attributes.isEmpty)
  }
}
