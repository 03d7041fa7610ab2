#!/usr/bin/env python3
"""Open3D's side of `cloudscrub bench ingest`: a Record3D EXR+JPG folder through
Open3D's RGB-D pipeline (full-size JPEG decode, colour resized to the depth size,
RGBDImage, PointCloud.create_from_rgbd_image with the frame's intrinsics and pose).

Prints one JSON object: frames per second and Open3D's version; exits 3 when Open3D (or
the OpenEXR Python module used to read the depth) is not installed. For benchmarks only.
"""
import json
import os
import sys
import time


def main():
    folder = sys.argv[1]
    try:
        import numpy as np
        import open3d as o3d
        import OpenEXR
    except ImportError as error:
        print(f"not installed: {error}", file=sys.stderr)
        return 3
    with open(os.path.join(folder, "metadata.json")) as handle:
        meta = json.load(handle)
    width, height = meta["w"], meta["h"]
    depth_width, depth_height = meta.get("dw", 192), meta.get("dh", 256)
    k = meta["K"]  # column-major
    fx, fy, cx, cy = k[0], k[4], k[6], k[7]
    sx, sy = depth_width / width, depth_height / height
    intrinsic = o3d.camera.PinholeCameraIntrinsic(
        depth_width, depth_height, fx * sx, fy * sy, cx * sx, cy * sy)
    frames = len(meta["poses"])
    flip = np.diag([1.0, -1.0, -1.0, 1.0])

    def pose(i):
        qx, qy, qz, qw, tx, ty, tz = meta["poses"][i]
        rotation = o3d.geometry.get_rotation_matrix_from_quaternion([qw, qx, qy, qz])
        world_from_camera = np.eye(4)
        world_from_camera[:3, :3] = rotation
        world_from_camera[:3, 3] = [tx, ty, tz]
        # Open3D unprojects in OpenCV axes; Record3D poses are for OpenGL axes.
        return np.linalg.inv(world_from_camera @ flip)

    def read_depth(i):
        with OpenEXR.File(os.path.join(folder, "depth", f"{i}.exr")) as exr:
            channel = exr.channels()["R"].pixels
        return np.ascontiguousarray(channel.astype(np.float32))

    # The colour pixel under each depth pixel's centre.
    rows = ((np.arange(depth_height) + 0.5) * height / depth_height).astype(int)
    columns = ((np.arange(depth_width) + 0.5) * width / depth_width).astype(int)

    start = time.perf_counter()
    points = 0
    for i in range(frames):
        depth = o3d.geometry.Image(read_depth(i))
        color = o3d.io.read_image(os.path.join(folder, "rgb", f"{i}.jpg"))
        small = np.ascontiguousarray(np.asarray(color)[rows][:, columns])
        rgbd = o3d.geometry.RGBDImage.create_from_color_and_depth(
            o3d.geometry.Image(small), depth, depth_scale=1.0, depth_trunc=10.0,
            convert_rgb_to_intensity=False)
        cloud = o3d.geometry.PointCloud.create_from_rgbd_image(rgbd, intrinsic, pose(i))
        points += len(cloud.points)
    elapsed = time.perf_counter() - start
    print(json.dumps({
        "version": o3d.__version__,
        "frames_per_second": frames / elapsed,
        "points": float(points),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
