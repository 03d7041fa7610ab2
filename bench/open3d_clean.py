#!/usr/bin/env python3
"""Open3D's side of `cloudscrub bench clean`: voxel_down_sample and
remove_statistical_outlier (k 20, std 2) on the same PLY files, timed alone (reading
excluded). Prints one JSON object of best times in seconds and Open3D's version; exits 3
when Open3D is not installed. For benchmarks only.
"""
import json
import sys
import time


def best(repeats, body):
    fastest = float("inf")
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = body()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest, result


def main():
    voxel_path, outlier_path, size, repeats = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    try:
        import open3d as o3d
    except ImportError:
        return 3
    big = o3d.io.read_point_cloud(voxel_path)
    small = o3d.io.read_point_cloud(outlier_path)
    voxel, merged = best(repeats, lambda: big.voxel_down_sample(size))
    sor, _ = best(repeats, lambda: small.remove_statistical_outlier(nb_neighbors=20, std_ratio=2.0))
    print(json.dumps({
        "version": o3d.__version__,
        "voxel_down_sample": voxel,
        "remove_statistical_outlier": sor,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
