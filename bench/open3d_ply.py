#!/usr/bin/env python3
"""Open3D's side of `cloudscrub bench`: times reading and writing the same PLY files.

Prints one JSON object of best times in seconds; exits 3 when Open3D is not installed.
For benchmarks only: nothing in the build or the tests needs Open3D.
"""
import argparse
import json
import os
import sys
import time


def best(repeats, body):
    fastest = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        body()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--ascii", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    try:
        import open3d as o3d
    except ImportError:
        print("open3d is not installed", file=sys.stderr)
        return 3
    o3d.utility.set_verbosity_level(o3d.utility.VerbosityLevel.Error)
    cloud = o3d.io.read_point_cloud(args.binary)
    results = {"version": o3d.__version__}
    results["read_binary"] = best(args.repeats, lambda: o3d.io.read_point_cloud(args.binary))
    results["read_ascii"] = best(min(args.repeats, 2), lambda: o3d.io.read_point_cloud(args.ascii))
    results["write_binary"] = best(
        args.repeats, lambda: o3d.io.write_point_cloud(args.output, cloud, write_ascii=False))
    results["write_ascii"] = best(
        1, lambda: o3d.io.write_point_cloud(args.output, cloud, write_ascii=True))
    if os.path.exists(args.output):
        os.remove(args.output)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
