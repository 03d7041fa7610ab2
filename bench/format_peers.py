#!/usr/bin/env python3
"""Open3D (PCD, meshes), laspy (LAS) and trimesh (meshes) on CloudScrub's files, for the
tests and `bench formats`.

  format_peers.py check                      prints which peers import
                                             ("open3d laspy trimesh")
  format_peers.py read-pcd FILE              JSON: count, first point, colour, normals
  format_peers.py write-pcd IN OUT MODE      Open3D reads IN (PLY/PCD), writes OUT as
                                             binary, ascii or compressed PCD
  format_peers.py read-las FILE              JSON: version, format, count, first point,
                                             16-bit colour, extra dimensions' first values
  format_peers.py write-las OUT VERSION FMT  laspy writes 100 known points (see below)
  format_peers.py read-mesh PEER FILE        trimesh or open3d reads a mesh (PLY, OBJ,
                                             GLB); JSON: vertex and face counts, the first
                                             vertex, face and vertex colour
  format_peers.py bench PCD LAS [R]          seconds (best of R) for Open3D to read and
                                             write PCD and for laspy to read and write
                                             LAS, as JSON
  format_peers.py bench-text PCD XYZ [R]     seconds (best of R) for Open3D to read and
                                             write ASCII PCD and XYZ, and numpy.loadtxt to
                                             read the XYZ file, as JSON
"""
import json
import sys
import time


def check():
    found = []
    for name in ("open3d", "laspy", "trimesh"):
        try:
            __import__(name)
            found.append(name)
        except Exception:
            pass
    print(" ".join(found))


def read_pcd(path):
    import numpy as np
    import open3d as o3d
    cloud = o3d.io.read_point_cloud(path)
    points = np.asarray(cloud.points)
    colors = np.rint(np.asarray(cloud.colors) * 255).astype(int)
    print(json.dumps({
        "count": len(points),
        "first": points[0].tolist() if len(points) else [],
        "last": points[-1].tolist() if len(points) else [],
        "color": colors[0].tolist() if len(colors) else [],
        "normals": bool(cloud.has_normals()),
    }))


def write_pcd(source, target, mode):
    import open3d as o3d
    cloud = o3d.io.read_point_cloud(source)
    ok = o3d.io.write_point_cloud(
        target, cloud, write_ascii=(mode == "ascii"), compressed=(mode == "compressed"))
    if not ok:
        sys.exit("open3d could not write " + target)


def read_las(path):
    import laspy
    las = laspy.read(path)
    extras = {name: las[name][:3].tolist() for name in las.point_format.extra_dimension_names}
    print(json.dumps({
        "version": str(las.header.version),
        "format": las.header.point_format.id,
        "count": len(las.points),
        "first": [float(las.x[0]), float(las.y[0]), float(las.z[0])],
        "rgb": ([int(las.red[0]), int(las.green[0]), int(las.blue[0])]
                if "red" in las.point_format.dimension_names else []),
        "extra": extras,
    }))


def write_las(path, version, point_format):
    """Point i of 100: x = 10 + 0.01 i, y = -5 + 0.02 i, z = 0.001 i (scale 0.001),
    red 600 i, green 65535 - 600 i, blue 257 i, extra float32 'half' = i / 2."""
    import laspy
    import numpy as np
    header = laspy.LasHeader(point_format=int(point_format), version=version)
    header.scales = np.array([0.001, 0.001, 0.001])
    header.offsets = np.array([10.0, -5.0, 0.0])
    header.add_extra_dim(laspy.ExtraBytesParams(name="half", type=np.float32))
    las = laspy.LasData(header)
    i = np.arange(100)
    las.x = 10 + 0.01 * i
    las.y = -5 + 0.02 * i
    las.z = 0.001 * i
    if "red" in las.point_format.dimension_names:
        las.red = 600 * i
        las.green = 65535 - 600 * i
        las.blue = 257 * i
    las.half = (i / 2).astype(np.float32)
    las.write(path)


def read_mesh(peer, path):
    import numpy as np
    if peer == "trimesh":
        import trimesh
        loaded = trimesh.load(path, process=False)
        mesh = list(loaded.geometry.values())[0] if isinstance(loaded, trimesh.Scene) else loaded
        if mesh.visual.kind == "vertex":
            colors = mesh.visual.vertex_colors
        else:  # glTF with a material: COLOR_0 is kept as a vertex attribute
            attributes = getattr(mesh.visual, "vertex_attributes", {})
            colors = attributes["color"] if "color" in attributes else []
        vertices, faces = mesh.vertices, mesh.faces
    else:
        import open3d as o3d
        o3d.utility.set_verbosity_level(o3d.utility.VerbosityLevel.Error)
        mesh = o3d.io.read_triangle_mesh(path)
        colors = np.asarray(mesh.vertex_colors) * 255
        vertices, faces = np.asarray(mesh.vertices), np.asarray(mesh.triangles)
    print(json.dumps({
        "vertices": len(vertices),
        "faces": len(faces),
        "first_vertex": [float(x) for x in vertices[0]] if len(vertices) else [],
        "first_face": [int(i) for i in faces[0]] if len(faces) else [],
        "first_color": [int(round(float(c))) for c in colors[0][:3]] if len(colors) else [],
    }))


def best_of(repeats, body):
    """The shortest of `repeats` timed runs of `body`, seconds."""
    fastest = float("inf")
    for _ in range(max(1, int(repeats))):
        start = time.perf_counter()
        body()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def bench(pcd, las, repeats="1"):
    """The best of `repeats` runs of each, keyed as CloudScrub's own figures."""
    import laspy
    import open3d as o3d

    best = lambda body: best_of(repeats, body)

    holder = {}
    result = {"version": "open3d " + o3d.__version__ + ", laspy " + laspy.__version__}
    result["pcd read"] = best(lambda: holder.update(pcd=o3d.io.read_point_cloud(pcd)))
    result["pcd write"] = best(
        lambda: o3d.io.write_point_cloud(pcd + ".peer.pcd", holder["pcd"]))
    result["las read"] = best(lambda: holder.update(las=laspy.read(las)))
    result["las write"] = best(lambda: holder["las"].write(las + ".peer.las"))
    print(json.dumps(result))


def bench_text(pcd, xyz, repeats="1"):
    """Open3D's ASCII PCD and XYZ readers and writers, and numpy.loadtxt on the XYZ
    file (every column, `#` comments), keyed as CloudScrub's own figures. Open3D's XYZ
    reader takes the first three values of each line and skips lines it cannot read."""
    import numpy as np
    import open3d as o3d

    best = lambda body: best_of(repeats, body)

    holder = {}
    result = {"version": "open3d " + o3d.__version__ + ", numpy " + np.__version__}
    result["pcd ascii read"] = best(lambda: holder.update(pcd=o3d.io.read_point_cloud(pcd)))
    result["pcd ascii write"] = best(lambda: o3d.io.write_point_cloud(
        pcd + ".peer.pcd", holder["pcd"], write_ascii=True))
    result["xyz read"] = best(
        lambda: holder.update(xyz=o3d.io.read_point_cloud(xyz, format="xyz")))
    result["xyz write"] = best(
        lambda: o3d.io.write_point_cloud(xyz + ".peer.xyz", holder["xyz"], write_ascii=True))
    result["xyz read (numpy.loadtxt)"] = best(lambda: np.loadtxt(xyz, comments="#"))
    if len(holder["xyz"].points) != len(holder["pcd"].points):
        sys.exit("open3d read %d points from %s, %d from %s" % (
            len(holder["xyz"].points), xyz, len(holder["pcd"].points), pcd))
    print(json.dumps(result))


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    {"check": check, "read-pcd": read_pcd, "write-pcd": write_pcd, "read-las": read_las,
     "write-las": write_las, "read-mesh": read_mesh, "bench": bench,
     "bench-text": bench_text}[command](*arguments)
