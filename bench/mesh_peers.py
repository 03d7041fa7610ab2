#!/usr/bin/env python3
"""Reads CloudScrub's mesh files with trimesh and Open3D, for the tests.

  mesh_peers.py check        prints the peers that import (trimesh, open3d)
  mesh_peers.py trimesh PATH prints one JSON object: vertex and face counts, the first
                             vertex, the first face and the first vertex colour
  mesh_peers.py open3d PATH  the same, through Open3D
"""
import json
import sys


def describe(vertices, faces, colors):
    return {
        "vertices": len(vertices),
        "faces": len(faces),
        "first_vertex": [float(x) for x in vertices[0]] if len(vertices) else [],
        "first_face": [int(i) for i in faces[0]] if len(faces) else [],
        "first_color": [int(round(float(c))) for c in colors[0][:3]] if len(colors) else [],
    }


def main():
    command = sys.argv[1]
    if command == "check":
        found = []
        for name in ["trimesh", "open3d"]:
            try:
                __import__(name)
                found.append(name)
            except ImportError:
                pass
        print(" ".join(found))
        return 0
    path = sys.argv[2]
    if command == "trimesh":
        import trimesh
        loaded = trimesh.load(path, process=False)
        if isinstance(loaded, trimesh.Scene):
            mesh = list(loaded.geometry.values())[0]
        else:
            mesh = loaded
        if mesh.visual.kind == "vertex":
            colors = mesh.visual.vertex_colors
        else:  # glTF with a material: COLOR_0 is kept as a vertex attribute
            attributes = getattr(mesh.visual, "vertex_attributes", {})
            colors = attributes["color"] if "color" in attributes else []
        print(json.dumps(describe(mesh.vertices, mesh.faces, colors)))
        return 0
    if command == "open3d":
        import numpy as np
        import open3d as o3d
        o3d.utility.set_verbosity_level(o3d.utility.VerbosityLevel.Error)
        mesh = o3d.io.read_triangle_mesh(path)
        colors = np.asarray(mesh.vertex_colors) * 255
        print(json.dumps(describe(
            np.asarray(mesh.vertices), np.asarray(mesh.triangles), colors)))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
