import Foundation
import TestSupport
import Testing

@testable import CloudScrubCore
@testable import CloudScrubFormats

extension SharedPLYHeaderCase {
  private static func scalars(_ type: ScalarType, _ names: [String]) -> [PLYProperty] {
    names.map { PLYProperty(name: $0, kind: .scalar(type)) }
  }
  private static func i8(_ names: String...) -> [PLYProperty] { scalars(.int8, names) }
  private static func u8(_ names: String...) -> [PLYProperty] { scalars(.uint8, names) }
  private static func i16(_ names: String...) -> [PLYProperty] { scalars(.int16, names) }
  private static func u16(_ names: String...) -> [PLYProperty] { scalars(.uint16, names) }
  private static func i32(_ names: String...) -> [PLYProperty] { scalars(.int32, names) }
  private static func u32(_ names: String...) -> [PLYProperty] { scalars(.uint32, names) }
  private static func f32(_ names: String...) -> [PLYProperty] { scalars(.float32, names) }
  private static func f64(_ names: String...) -> [PLYProperty] { scalars(.float64, names) }
  private static func list(
    _ count: ScalarType, _ item: ScalarType, _ name: String
  ) -> [PLYProperty] {
    [PLYProperty(name: name, kind: .list(count: count, item: item))]
  }

  /// Every file under `ply/`, as its header reads.
  static let all: [SharedPLYHeaderCase] = [
    .init(
      "Fluci+ply-rs/example_plys/all_atomic_types_ok_ascii.ply",
      .ascii, bodyOffset: 404,
      elements: [
        .init(
          name: "point", count: 1,
          properties: i8("a", "b") + u8("c", "d") + i16("e", "f") + u16("g", "h")
            + i32("i", "j") + u32("k", "l") + f32("m", "n") + f64("o", "p"))
      ],
      comments: ["Hi, I'm your friendly comment."],
      objInfo: ["And I'm your object information."],
      error: .missingProperty(name: "x", element: "point")),
    .init(
      "Fluci+ply-rs/example_plys/empty_2_ok_ascii.ply",
      .ascii, bodyOffset: 179,
      elements: [
        .init(name: "vertex", count: 0, properties: f32("x", "y", "z")),
        .init(name: "face", count: 0, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "Fluci+ply-rs/example_plys/empty_2_ok_little_endian.ply",
      .binaryLittleEndian, bodyOffset: 194,
      elements: [
        .init(name: "vertex", count: 0, properties: f32("x", "y", "z")),
        .init(name: "face", count: 0, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "Fluci+ply-rs/example_plys/empty_ok_ascii.ply",
      .ascii, bodyOffset: 311,
      elements: [
        .init(name: "vertex", count: 0, properties: f32("x", "y", "z", "nx", "ny", "nz")),
        .init(name: "face", count: 0, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.77 (sub 0) - www.blender.org, source file: ''"],
      objInfo: ["I'm a great help!"]),
    .init(
      "Fluci+ply-rs/example_plys/exponent_values_ok_ascii.ply",
      .ascii, bodyOffset: 163,
      elements: [
        .init(name: "point", count: 1, properties: f32("x", "y"))
      ],
      comments: ["Hi, I'm your friendly comment."],
      objInfo: ["And I'm your object information."]),
    .init(
      "Fluci+ply-rs/example_plys/greg_turk_example1_ok_ascii.ply",
      .ascii, bodyOffset: 261,
      elements: [
        .init(name: "vertex", count: 8, properties: f32("x", "y", "z")),
        .init(name: "face", count: 6, properties: list(.uint8, .int32, "vertex_index")),
      ],
      comments: [
        "made by Greg Turk",
        "this file is a cube",
        "source: http://paulbourke.net/dataformats/ply/",
      ]),
    .init(
      "Fluci+ply-rs/example_plys/greg_turk_example2_ok_ascii.ply",
      .ascii, bodyOffset: 439,
      elements: [
        .init(
          name: "vertex", count: 8,
          properties: f32("x", "y", "z") + u8("red", "green", "blue")),
        .init(name: "face", count: 7, properties: list(.uint8, .int32, "vertex_index")),
        .init(
          name: "edge", count: 5,
          properties: i32("vertex1", "vertex2") + u8("red", "green", "blue")),
      ],
      comments: [
        "author: Greg Turk",
        "object: another cube",
        "source: http://paulbourke.net/dataformats/ply/",
      ]),
    .init(
      "Fluci+ply-rs/example_plys/header_min_ok_ascii.ply",
      .ascii, bodyOffset: 32,
      elements: []),
    .init(
      "Fluci+ply-rs/example_plys/house_2_ok_ascii.ply",
      .ascii, bodyOffset: 179,
      elements: [
        .init(name: "vertex", count: 5, properties: f32("x", "y", "z")),
        .init(name: "face", count: 3, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "Fluci+ply-rs/example_plys/house_2_ok_little_endian.ply",
      .binaryLittleEndian, bodyOffset: 194,
      elements: [
        .init(name: "vertex", count: 5, properties: f32("x", "y", "z")),
        .init(name: "face", count: 3, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "Fluci+ply-rs/example_plys/house_ok_ascii.ply",
      .ascii, bodyOffset: 284,
      elements: [
        .init(name: "vertex", count: 5, properties: f32("x", "y", "z", "nx", "ny", "nz")),
        .init(name: "face", count: 3, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.77 (sub 0) - www.blender.org, source file: ''"]),
    .init(
      "Fluci+ply-rs/example_plys/leading_spaces_ok_ascii.ply",
      .ascii, bodyOffset: 163,
      elements: [
        .init(name: "point", count: 4, properties: f32("x", "y"))
      ],
      comments: ["Hi, I'm your friendly comment."],
      objInfo: ["And I'm your object information."]),
    .init(
      "Fluci+ply-rs/example_plys/single_elements_ok_ascii.ply",
      .ascii, bodyOffset: 159,
      elements: [
        .init(name: "point", count: 1, properties: i32("x", "y"))
      ],
      comments: ["Hi, I'm your friendly comment."],
      objInfo: ["And I'm your object information."]),
    .init(
      "assimp+assimp/test/models/PLY/cube.ply",
      .ascii, bodyOffset: 221,
      elements: [
        .init(name: "vertex", count: 8, properties: f32("x", "y", "z")),
        .init(name: "face", count: 6, properties: list(.uint8, .int32, "vertex_index")),
      ]),
    .init(
      "assimp+assimp/test/models/PLY/cube_binary.ply",
      .binaryLittleEndian, bodyOffset: 195,
      elements: [
        .init(name: "vertex", count: 8, properties: f32("x", "y", "z")),
        .init(name: "face", count: 12, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "assimp+assimp/test/models/PLY/cube_binary_header_with_RN_newline.ply",
      .binaryLittleEndian, bodyOffset: 196,
      elements: [
        .init(name: "vertex", count: 8, properties: f32("x", "y", "z")),
        .init(name: "face", count: 12, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "assimp+assimp/test/models/PLY/cube_uv.ply",
      .ascii, bodyOffset: 319,
      elements: [
        .init(
          name: "vertex", count: 24,
          properties: f32("x", "y", "z", "nx", "ny", "nz", "s", "t")),
        .init(name: "face", count: 6, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.77 (sub 0) - www.blender.org, source file: ''"]),
    .init(
      "assimp+assimp/test/models/PLY/float-color.ply",
      .ascii, bodyOffset: 260,
      elements: [
        .init(
          name: "vertex", count: 3,
          properties: f32("x", "y", "z", "red", "green", "blue", "alpha")),
        .init(name: "face", count: 1, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "assimp+assimp/test/models/PLY/points.ply",
      .ascii, bodyOffset: 214,
      elements: [
        .init(
          name: "vertex", count: 4,
          properties: f32("x", "y", "z") + u8("red", "green", "blue") + f32("nx", "ny", "nz"))
      ]),
    .init(
      "ddiakopoulos+tinyply/assets/icosahedron.ply",
      .binaryLittleEndian, bodyOffset: 250,
      elements: [
        .init(name: "vertex", count: 12, properties: f32("x", "y", "z", "nx", "ny", "nz")),
        .init(name: "face", count: 20, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "ddiakopoulos+tinyply/assets/icosahedron_ascii.ply",
      .ascii, bodyOffset: 235,
      elements: [
        .init(name: "vertex", count: 12, properties: f32("x", "y", "z", "nx", "ny", "nz")),
        .init(name: "face", count: 20, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "ddiakopoulos+tinyply/assets/sofa_ascii.ply",
      .ascii, bodyOffset: 187,
      elements: [
        .init(name: "vertex", count: 12103, properties: f32("x", "y", "z")),
        .init(name: "face", count: 24104, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "diegonehab+rply/etc/input.ply",
      .ascii, bodyOffset: 221,
      elements: [
        .init(name: "vertex", count: 3, properties: f32("x", "y", "z")),
        .init(name: "face", count: 1, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["this is our first comment", "this is our last comment"]),
    .init(
      "dranjan+python-plyfile/examples/tet.ply",
      .ascii, bodyOffset: 289,
      elements: [
        .init(name: "vertex", count: 4, properties: f32("x", "y", "z")),
        .init(
          name: "face", count: 4,
          properties: list(.uint8, .int32, "vertex_indices") + u8("red", "green", "blue")),
      ],
      comments: ["single tetrahedron with colored faces", "tetrahedron vertices"]),
    .init(
      "mikedh+trimesh/models/BoxTextured.ply",
      .ascii, bodyOffset: 314,
      elements: [
        .init(
          name: "vertex", count: 24,
          properties: f32("x", "y", "z", "nx", "ny", "nz", "s", "t")),
        .init(name: "face", count: 12, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.83.1 - www.blender.org, source file: ''"]),
    .init(
      "mikedh+trimesh/models/cube_blender_uv.ply",
      .ascii, bodyOffset: 319,
      elements: [
        .init(
          name: "vertex", count: 24,
          properties: f32("x", "y", "z", "nx", "ny", "nz", "s", "t")),
        .init(name: "face", count: 6, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.82 (sub 7) - www.blender.org, source file: ''"]),
    .init(
      "mikedh+trimesh/models/cube_blender_uv_meshlab.ply",
      .binaryLittleEndian, bodyOffset: 246,
      elements: [
        .init(name: "vertex", count: 24, properties: f32("x", "y", "z", "texture_u", "texture_v")),
        .init(name: "face", count: 12, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "mikedh+trimesh/models/cycloidal.ply",
      .binaryLittleEndian, bodyOffset: 364,
      elements: [
        .init(
          name: "vertex", count: 21384,
          properties: f32("x", "y", "z") + u8("red", "green", "blue", "alpha")),
        .init(
          name: "face", count: 43368,
          properties: list(.uint8, .int32, "vertex_indices") + u8("red", "green", "blue", "alpha")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "mikedh+trimesh/models/empty.ply",
      .ascii, bodyOffset: 250,
      elements: [
        .init(name: "vertex", count: 0, properties: f32("x", "y", "z", "nx", "ny", "nz")),
        .init(name: "face", count: 0, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Valid ply file without vertices."]),
    .init(
      "mikedh+trimesh/models/emptyIO/ply_empty_ascii.ply",
      .ascii, bodyOffset: 261,
      elements: [
        .init(name: "vertex", count: 0, properties: f32("x", "y", "z", "nx", "ny", "nz")),
        .init(name: "face", count: 0, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.91.0 - www.blender.org"]),
    .init(
      "mikedh+trimesh/models/emptyIO/ply_empty_bin.ply",
      .binaryLittleEndian, bodyOffset: 276,
      elements: [
        .init(name: "vertex", count: 0, properties: f32("x", "y", "z", "nx", "ny", "nz")),
        .init(name: "face", count: 0, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.91.0 - www.blender.org"]),
    .init(
      "mikedh+trimesh/models/emptyIO/ply_empty_header.ply",
      .ascii, bodyOffset: 32,
      elements: []),
    .init(
      "mikedh+trimesh/models/emptyIO/ply_points_ascii.ply",
      .ascii, bodyOffset: 207,
      elements: [
        .init(name: "vertex", count: 8, properties: f32("x", "y", "z")),
        .init(name: "face", count: 0, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.91.0 - www.blender.org"]),
    .init(
      "mikedh+trimesh/models/emptyIO/ply_points_bin.ply",
      .binaryLittleEndian, bodyOffset: 248,
      elements: [
        .init(name: "vertex", count: 8, properties: f32("x", "y", "z", "nx", "ny", "nz")),
        .init(name: "face", count: 0, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "mikedh+trimesh/models/fixed_top.ply",
      .binaryLittleEndian, bodyOffset: 290,
      elements: [
        .init(name: "vertex", count: 2374, properties: f32("x", "y", "z")),
        .init(
          name: "face", count: 4772,
          properties: list(.uint8, .int32, "vertex_indices") + u8("red", "green", "blue", "alpha")),
      ],
      comments: ["github.com/mikedh/trimesh"]),
    .init(
      "mikedh+trimesh/models/fuze_ascii.ply",
      .ascii, bodyOffset: 413,
      elements: [
        .init(
          name: "vertex", count: 502,
          properties: f32("x", "y", "z") + u8("red", "green", "blue", "alpha")),
        .init(
          name: "face", count: 1000,
          properties: list(.uint8, .int32, "vertex_indices") + list(.uint8, .float32, "texcoord")
            + u8("red", "green", "blue", "alpha")),
      ],
      comments: ["VCGLIB generated", "TextureFile fuze uv.jpg"]),
    .init(
      "mikedh+trimesh/models/mirror.ply",
      .binaryLittleEndian, bodyOffset: 215,
      elements: [
        .init(name: "vertex", count: 143, properties: f32("x", "y", "z")),
        .init(name: "face", count: 286, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["https://github.com/mikedh/trimesh"]),
    .init(
      "mikedh+trimesh/models/multi.ply",
      .ascii, bodyOffset: 290,
      elements: [
        .init(
          name: "vertex", count: 4,
          properties: f32("x", "y", "z", "s", "t") + u8("red", "green", "blue")),
        .init(name: "face", count: 1, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created in Blender version 4.3.2"]),
    .init(
      "mikedh+trimesh/models/octagonal_pocket.ply",
      .binaryLittleEndian, bodyOffset: 200,
      elements: [
        .init(name: "vertex", count: 1658, properties: f32("x", "y", "z")),
        .init(name: "face", count: 3262, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "mikedh+trimesh/models/plane.ply",
      .ascii, bodyOffset: 318,
      elements: [
        .init(name: "vertex", count: 4, properties: f32("x", "y", "z", "nx", "ny", "nz", "s", "t")),
        .init(name: "face", count: 1, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.82 (sub 7) - www.blender.org, source file: ''"]),
    .init(
      "mikedh+trimesh/models/plane_tri.ply",
      .ascii, bodyOffset: 318,
      elements: [
        .init(name: "vertex", count: 4, properties: f32("x", "y", "z", "nx", "ny", "nz", "s", "t")),
        .init(name: "face", count: 2, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Created by Blender 2.82 (sub 7) - www.blender.org, source file: ''"]),
    .init(
      "mikedh+trimesh/models/points_ascii.ply",
      .ascii, bodyOffset: 100,
      elements: [
        .init(name: "vertex", count: 5, properties: f32("x", "y", "z"))
      ]),
    .init(
      "mikedh+trimesh/models/points_ascii_with_lists.ply",
      .ascii, bodyOffset: 227,
      elements: [
        .init(name: "vertex", count: 5, properties: f32("x", "y", "z")),
        .init(
          name: "point_list", count: 2,
          properties: list(.uint8, .uint32, "point_indices1")
            + list(.uint8, .uint32, "point_indices2") + f32("some_float")),
      ]),
    .init(
      "mikedh+trimesh/models/points_bin.ply",
      .binaryLittleEndian, bodyOffset: 194,
      elements: [
        .init(name: "vertex", count: 5, properties: f32("x", "y", "z")),
        .init(name: "face", count: 0, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "mikedh+trimesh/models/points_emptyascii.ply",
      .ascii, bodyOffset: 180,
      elements: [
        .init(name: "vertex", count: 12, properties: f32("x", "y", "z")),
        .init(name: "face", count: 0, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "mikedh+trimesh/models/points_emptyface.ply",
      .ascii, bodyOffset: 191,
      elements: [
        .init(name: "vertex", count: 1024, properties: f32("x", "y", "z")),
        .init(name: "face", count: 0, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["github.com/mikedh/trimesh"]),
    .init(
      "mikedh+trimesh/models/reference.ply",
      .binaryLittleEndian, bodyOffset: 280,
      elements: [
        .init(
          name: "vertex", count: 845,
          properties: f32("x", "y", "z") + u8("red", "green", "blue", "alpha")),
        .init(name: "face", count: 1610, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "mikedh+trimesh/models/sphere.ply",
      .ascii, bodyOffset: 184,
      elements: [
        .init(name: "vertex", count: 642, properties: f32("x", "y", "z")),
        .init(name: "face", count: 1280, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["VCGLIB generated"]),
    .init(
      "mikedh+trimesh/models/suzanne.ply",
      .ascii, bodyOffset: 336,
      elements: [
        .init(
          name: "vertex", count: 1966,
          properties: f32("x", "y", "z", "nx", "ny", "nz", "s", "t")),
        .init(name: "face", count: 500, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: [
        "Created by Blender 2.83.3 - www.blender.org, source file: 'my_base_scene.blend'"
      ]),
    .init(
      "mikedh+trimesh/models/tet.ply",
      .binaryLittleEndian, bodyOffset: 203,
      elements: [
        .init(name: "vertex", count: 4, properties: f32("x", "y", "z")),
        .init(name: "face", count: 4, properties: list(.uint8, .int32, "vertex_indices")),
      ],
      comments: ["github.com/mikedh/trimesh"]),
    .init(
      "nmwsharp+happly/test/sampledata/platonic_shelf.ply",
      .binaryLittleEndian, bodyOffset: 240,
      elements: [
        .init(name: "face", count: 50, properties: list(.uint8, .uint32, "vertex_indices")),
        .init(name: "vertex", count: 50, properties: f64("x", "y", "z")),
      ],
      comments: ["Written with hapPLY (https://github.com/nmwsharp/happly)"]),
    .init(
      "nmwsharp+happly/test/sampledata/platonic_shelf_ascii.ply",
      .ascii, bodyOffset: 225,
      elements: [
        .init(name: "face", count: 50, properties: list(.uint8, .uint32, "vertex_indices")),
        .init(name: "vertex", count: 50, properties: f64("x", "y", "z")),
      ],
      comments: ["Written with hapPLY (https://github.com/nmwsharp/happly)"]),
    .init(
      "nmwsharp+happly/test/sampledata/platonic_shelf_big_endian.ply",
      .binaryBigEndian, bodyOffset: 237,
      elements: [
        .init(name: "vertex", count: 50, properties: f64("x", "y", "z")),
        .init(name: "face", count: 50, properties: list(.uint8, .uint32, "vertex_indices")),
      ],
      comments: ["Written with hapPLY (https://github.com/nmwsharp/happly)"]),
  ]
}
