#!/usr/bin/env python3
"""Open3D's side of `cloudscrub bench fuse`: the same filtered frames (written by the
benchmark as 16-bit millimetre depth PNGs and RGB PNGs at the depth size, with
`frames.json` holding each frame's intrinsics and camera-from-world matrix in OpenCV
axes) integrated into Open3D's tensor `VoxelBlockGrid` on the CPU with the same voxel
size and truncation, and the mesh extracted from the voxels seen at least once, as
CloudScrub's is (Open3D keeps a voxel whose weight is above the threshold: 0 here).

Open3D puts voxel (i, j, k) at (i, j, k) voxel sizes and CloudScrub at (i + 0.5, j + 0.5,
k + 0.5), so Open3D integrates in a world moved by half a voxel and its mesh is moved
back: both then sample the distance at the same points.

Compares the result with CloudScrub's mesh (`--ours`): median distance from points
sampled on each surface to the other; the share of Open3D's surface within one voxel
of ours; and, of the rest, the share that is a second layer of Open3D's (where Open3D
also has surface within a voxel of the nearest point of ours). With `--ours-sparse`, the
median distances, the share covered and the area of a second mesh of ours, fused with its
blocks listed from every 4th pixel as Open3D's `GetUniqueBlockCoordinates` lists them.

Prints one JSON object; exits 3 when Open3D is not installed. For benchmarks only.
"""
import argparse
import json
import os
import resource
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", required=True)
    parser.add_argument("--ours", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--ours-sparse", help="a second mesh of ours, fused with blocks "
                        "listed from every 4th pixel as Open3D lists them")
    args = parser.parse_args()
    try:
        import numpy as np
        import open3d as o3d
        import open3d.core as o3c
    except ImportError as error:
        print(f"not installed: {error}", file=sys.stderr)
        return 3
    o3d.utility.set_verbosity_level(o3d.utility.VerbosityLevel.Error)
    with open(os.path.join(args.frames, "frames.json")) as handle:
        meta = json.load(handle)
    voxel = meta["voxel"]
    trunc_voxels = meta["truncation"] / voxel
    depth_max = meta["depth_max"]
    half = np.eye(4)
    half[:3, 3] = voxel / 2
    device = o3c.Device("CPU:0")
    baseline_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    grid = o3d.t.geometry.VoxelBlockGrid(
        attr_names=("tsdf", "weight", "color"),
        attr_dtypes=(o3c.float32, o3c.float32, o3c.float32),
        attr_channels=((1), (1), (3)),
        voxel_size=voxel, block_resolution=8, block_count=20000, device=device)
    integrating = 0.0
    for frame in meta["frames"]:
        depth = o3d.t.io.read_image(os.path.join(args.frames, frame["depth"])).to(device)
        color = o3d.t.io.read_image(os.path.join(args.frames, frame["color"])).to(device)
        # Colour in 0…1, as the mesh's vertex colours are (float colour takes float depth).
        color = o3d.t.geometry.Image(color.as_tensor().to(o3c.float32) / 255.0)
        depth = o3d.t.geometry.Image(depth.as_tensor().to(o3c.float32))
        intrinsic = o3c.Tensor(np.array(frame["intrinsic"], dtype=np.float64))
        extrinsic = o3c.Tensor(np.array(frame["extrinsic"], dtype=np.float64) @ half)
        start = time.perf_counter()
        blocks = grid.compute_unique_block_coordinates(
            depth, intrinsic, extrinsic, 1000.0, depth_max, trunc_voxels)
        grid.integrate(blocks, depth, color, intrinsic, extrinsic, 1000.0, depth_max,
                       trunc_voxels)
        integrating += time.perf_counter() - start
    start = time.perf_counter()
    mesh = grid.extract_triangle_mesh(weight_threshold=0.0)
    extracting = time.perf_counter() - start
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    theirs = mesh.to_legacy().translate(half[:3, 3])
    o3d.io.write_triangle_mesh(args.output, theirs)
    ours = o3d.io.read_triangle_mesh(args.ours)

    def scene(surface):
        made = o3d.t.geometry.RaycastingScene()
        made.add_triangles(o3d.t.geometry.TriangleMesh.from_legacy(surface))
        return made

    def query(points):
        return o3c.Tensor(np.asarray(points, dtype=np.float32))

    their_scene = scene(theirs)
    samples = 200000
    their_points = theirs.sample_points_uniformly(samples)

    def apart(mesh):
        """Distances from points sampled on `mesh` to Open3D's surface and back."""
        made = scene(mesh)
        points = mesh.sample_points_uniformly(samples)
        there = their_scene.compute_distance(query(points.points)).numpy()
        back = made.compute_distance(query(their_points.points)).numpy()
        return made, points, there, back

    ours_scene, ours_points, ours_to_theirs, theirs_to_ours = apart(ours)
    sparse = {}
    if args.ours_sparse:
        other = o3d.io.read_triangle_mesh(args.ours_sparse)
        _, _, there, back = apart(other)
        sparse = {
            "sparse_ours_to_theirs_median_mm": float(np.median(there) * 1000),
            "sparse_theirs_to_ours_median_mm": float(np.median(back) * 1000),
            "sparse_coverage_of_theirs": float(np.mean(back <= voxel)),
            "sparse_area_m2": float(other.get_surface_area()),
        }
    # Open3D's surface beyond a voxel from ours, where Open3D also has surface within a
    # voxel of the nearest point of ours: a second layer beside the one both have.
    uncovered = np.asarray(their_points.points)[theirs_to_ours > voxel]
    second_layer = 0.0
    if len(uncovered):
        nearest = ours_scene.compute_closest_points(query(uncovered))["points"]
        second_layer = float(np.mean(their_scene.compute_distance(nearest).numpy() <= voxel))
    # The same distances by how far the sampled point lies from the first camera, where
    # the depth noise grows: keys like "theirs_to_ours_median_mm_1_2m".
    first_camera = np.linalg.inv(np.array(meta["frames"][0]["extrinsic"]))[:3, 3]
    by_range = {}
    for name, points, apart in (
            ("ours_to_theirs", ours_points, ours_to_theirs),
            ("theirs_to_ours", their_points, theirs_to_ours)):
        reach = np.linalg.norm(np.asarray(points.points) - first_camera, axis=1)
        for low, high in ((0, 1), (1, 2), (2, 3), (3, 5)):
            inside = (reach >= low) & (reach < high)
            if not inside.any():
                continue
            suffix = f"_{low}_{high}m"
            by_range[name + "_share" + suffix] = float(np.mean(inside))
            by_range[name + "_median_mm" + suffix] = float(np.median(apart[inside]) * 1000)
            by_range[name + "_within_voxel" + suffix] = float(np.mean(apart[inside] <= voxel))
    hashmap = grid.hashmap()
    print(json.dumps({
        **by_range,
        **sparse,
        "ours_area_m2": float(ours.get_surface_area()),
        "their_area_m2": float(theirs.get_surface_area()),
        "version": o3d.__version__,
        "frames": len(meta["frames"]),
        "integrate_fps": len(meta["frames"]) / integrating,
        "extract_seconds": extracting,
        "blocks": int(hashmap.size()),
        "block_capacity": int(hashmap.capacity()),
        "grid_mb": hashmap.capacity() * 512 * 20 / 1e6,
        "peak_mb": peak_kb / 1024,
        "baseline_mb": baseline_kb / 1024,
        "vertices": len(theirs.vertices),
        "triangles": len(theirs.triangles),
        "ours_to_theirs_median_mm": float(np.median(ours_to_theirs) * 1000),
        "theirs_to_ours_median_mm": float(np.median(theirs_to_ours) * 1000),
        "coverage_of_theirs": float(np.mean(theirs_to_ours <= voxel)),
        "uncovered_second_layer": second_layer,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
