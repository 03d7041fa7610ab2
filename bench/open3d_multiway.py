#!/usr/bin/env python3
"""Open3D's side of `cloudscrub bench drift`: multiway registration of the same
keyframes CloudScrub's loop closure uses. The benchmark writes each keyframe's
subsampled depth points with normals (camera axes, OpenCV) as `N.ply` and
`frames.json` with each keyframe's recorded world-from-camera pose (row-major 4×4) and
the alignment voxel size. This script registers consecutive keyframes (odometry) and
every other pair whose cameras stand within 3 m (loops, marked uncertain) with
point-to-plane ICP from the recorded relative pose, takes the information matrix of each
pair's correspondences, and runs Open3D's global pose-graph optimisation
(Levenberg–Marquardt with line processes, edge pruning 0.25, reference node 0): the
steps of Open3D's multiway registration.

Prints one JSON object (the optimised poses, row-major, and the seconds taken); exits 3
when Open3D is not installed. For benchmarks only.
"""
import argparse
import json
import os
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", required=True)
    args = parser.parse_args()
    try:
        import numpy as np
        import open3d as o3d
    except ImportError as error:
        print(f"not installed: {error}", file=sys.stderr)
        return 3
    o3d.utility.set_verbosity_level(o3d.utility.VerbosityLevel.Error)
    with open(os.path.join(args.frames, "frames.json")) as handle:
        meta = json.load(handle)
    voxel = meta["voxel"]
    clouds = [o3d.io.read_point_cloud(os.path.join(args.frames, f["file"]))
              for f in meta["frames"]]
    poses = [np.array(f["pose"], dtype=np.float64).reshape(4, 4) for f in meta["frames"]]
    start = time.perf_counter()
    distance = voxel * 1.5
    graph = o3d.pipelines.registration.PoseGraph()
    graph.nodes.append(o3d.pipelines.registration.PoseGraphNode(poses[0]))
    for i in range(1, len(clouds)):
        graph.nodes.append(o3d.pipelines.registration.PoseGraphNode(poses[i]))
    point_to_plane = o3d.pipelines.registration.TransformationEstimationPointToPlane()
    pairs = 0
    for i in range(len(clouds)):
        for j in range(i + 1, len(clouds)):
            if j != i + 1 and np.linalg.norm(poses[i][:3, 3] - poses[j][:3, 3]) > 3:
                continue
            # source j into target i: i_from_j.
            initial = np.linalg.inv(poses[i]) @ poses[j]
            icp = o3d.pipelines.registration.registration_icp(
                clouds[j], clouds[i], distance, initial, point_to_plane)
            if j != i + 1 and icp.fitness < 0.3:
                continue
            information = o3d.pipelines.registration.get_information_matrix_from_point_clouds(
                clouds[j], clouds[i], distance, icp.transformation)
            # An edge's transformation takes its source (j) into its target (i).
            graph.edges.append(o3d.pipelines.registration.PoseGraphEdge(
                j, i, icp.transformation, information, uncertain=(j != i + 1)))
            pairs += 1
    option = o3d.pipelines.registration.GlobalOptimizationOption(
        max_correspondence_distance=distance, edge_prune_threshold=0.25, reference_node=0)
    o3d.pipelines.registration.global_optimization(
        graph, o3d.pipelines.registration.GlobalOptimizationLevenbergMarquardt(),
        o3d.pipelines.registration.GlobalOptimizationConvergenceCriteria(), option)
    seconds = time.perf_counter() - start
    print(json.dumps({
        "version": o3d.__version__,
        "seconds": seconds,
        "pairs": pairs,
        "poses": [list(map(float, node.pose.reshape(-1))) for node in graph.nodes],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
