#!/usr/bin/env python3
"""Open3D's side of `cloudscrub bench clean`: voxel_down_sample and
remove_statistical_outlier (k 20, std 2) on the same PLY files, timed alone (reading
excluded). Prints one JSON object of best times in seconds, each job's peak resident
memory growth in MB (`<job>_peak_mb`, one more run, measured as the Swift side does)
and Open3D's version; exits 3 when Open3D is not installed. For benchmarks only.
"""
import ctypes
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


def status_kb(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return float(line.split()[1])
    return float("nan")


def peak_growth_mb(body):
    """How far the resident set rose above its level before `body`, in MB (10^6 bytes):
    freed heap memory is handed back and the kernel's peak (VmHWM) reset first."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except OSError:
        pass
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        return float("nan")
    before = status_kb("VmRSS")
    result = body()
    peak = status_kb("VmHWM")
    del result
    return (peak - before) * 1024 / 1e6


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
    del merged
    voxel_peak = peak_growth_mb(lambda: big.voxel_down_sample(size))
    sor_peak = peak_growth_mb(
        lambda: small.remove_statistical_outlier(nb_neighbors=20, std_ratio=2.0))
    print(json.dumps({
        "version": o3d.__version__,
        "voxel_down_sample": voxel,
        "remove_statistical_outlier": sor,
        "voxel_down_sample_peak_mb": voxel_peak,
        "remove_statistical_outlier_peak_mb": sor_peak,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
