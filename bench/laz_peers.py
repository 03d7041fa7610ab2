#!/usr/bin/env python3
"""laspy with lazrs (LAZ through the LASzip format's Rust implementation) on LAZ files,
for the LAZ tests and `bench clouds`.

  laz_peers.py check                           prints "lazrs" when laspy and lazrs import,
                                               and "laszip" when laspy's LASzip backend
                                               (pip install laszip) does too
  laz_peers.py random FMT COUNT SEED LAZ LAS [EXTRA] [CHANNELS] [BY]
                                               COUNT points of point format FMT whose
                                               every field varies the way scanners' do
                                               (below), with EXTRA extra bytes, on
                                               CHANNELS scanner channels (formats 6-10,
                                               default 4), written as LAZ by BY (lazrs,
                                               the default, or laszip; chunks of 50,000
                                               points) and as uncompressed LAS
  laz_peers.py compress LAS LAZ                lazrs compresses the LAS file's points
  laz_peers.py decompress LAZ OUT              lazrs decompresses the LAZ file's points
                                               (by its chunk table on every core, and
                                               in one stream, which must agree) into OUT
                                               as raw point records; prints the point
                                               count and format laspy reads
  laz_peers.py laszip-read LAZ OUT              LASzip itself (laspy's Laszip backend)
                                               reads the LAZ file's points into OUT as
                                               raw point records
  laz_peers.py copc-levels COPC                the points of each level of the COPC file's
                                               octree as laspy's CopcReader queries them,
                                               as a list
  laz_peers.py bench-compress LAS [R]          seconds (best of R) for lazrs to compress
                                               the LAS file's records in memory on every
                                               core and on one, as JSON
  laz_peers.py bench LAZ [R]                   seconds (best of R) for lazrs to decompress
                                               the file's points on every core and on one,
                                               and for laspy to read it, as JSON
"""
import io
import json
import sys


def check():
    found = []
    try:
        import laspy  # noqa: F401
        import lazrs  # noqa: F401
        found.append("lazrs")
        if laspy.LazBackend.Laszip in laspy.LazBackend.detect_available():
            found.append("laszip")
    except Exception:
        pass
    print(" ".join(found))


def copc_levels(copc):
    import laspy
    with laspy.CopcReader.open(copc) as reader:
        counts = []
        while True:
            points = len(reader.query(level=len(counts)))
            if points == 0:
                break
            counts.append(points)
    print("[" + ", ".join(str(count) for count in counts) + "]")


def laszip_read(laz, out):
    import laspy
    points = laspy.read(laz, laz_backend=laspy.LazBackend.Laszip).points
    open(out, "wb").write(points.array.tobytes())


def random_points(point_format, count, seed, extra, channels):
    """Coordinates walk in small steps with jumps; returns come in pulses of 1 to n
    returns (up to 15 in formats 6-10, over up to 4 scanner channels); GPS times rise in
    steady steps, repeat within a pulse, interleave between channels and sometimes jump
    far; colours drift with jumps; the other fields change now and then."""
    import laspy
    import numpy as np
    rng = np.random.default_rng(int(seed))
    header = laspy.LasHeader(point_format=int(point_format), version="1.4")
    header.scales = np.array([0.001, 0.001, 0.001])
    header.offsets = np.array([1000.0, 2000.0, 0.0])
    for index in range(int(extra)):
        header.add_extra_dim(laspy.ExtraBytesParams(name="extra%d" % index, type=np.uint8))
    las = laspy.LasData(header)
    n = int(count)
    steps = rng.normal(0, 40, (n, 3)).astype(np.int64)
    jumps = rng.random(n) < 0.01
    steps[jumps] = rng.integers(-200000, 200000, (int(jumps.sum()), 3))
    xyz = np.cumsum(steps, axis=0) + 500000
    las.X, las.Y, las.Z = xyz[:, 0], xyz[:, 1], xyz[:, 2]
    extended = int(point_format) >= 6
    most = 15 if extended else 7
    returns = np.empty(n, dtype=np.int64)
    numbers = np.empty(n, dtype=np.int64)
    i = 0
    while i < n:
        pulse = int(rng.choice([1, 1, 1, 2, 3, rng.integers(1, most + 1)]))
        for r in range(1, pulse + 1):
            if i == n:
                break
            returns[i], numbers[i] = r, pulse
            i += 1
    odd = rng.random(n) < 0.02
    returns[odd] = rng.integers(0, most + 1, int(odd.sum()))
    numbers[odd] = rng.integers(0, most + 1, int(odd.sum()))
    las.return_number = returns
    las.number_of_returns = numbers
    las.intensity = np.clip(np.cumsum(rng.normal(0, 300, n)) % 65536, 0, 65535).astype(np.uint16)
    las.classification = np.where(rng.random(n) < 0.1, rng.integers(0, 32, n), 2)
    las.scan_direction_flag = rng.random(n) < 0.5
    las.edge_of_flight_line = rng.random(n) < 0.05
    las.user_data = np.where(rng.random(n) < 0.05, rng.integers(0, 256, n), 7)
    las.point_source_id = np.where(rng.random(n) < 0.02, rng.integers(0, 65536, n), 12)
    if extended:
        las.scan_angle = np.clip(np.cumsum(rng.integers(-3, 4, n)), -30000, 30000)
        las.scanner_channel = np.where(rng.random(n) < 0.1, rng.integers(0, int(channels), n), 0)
        las.synthetic = rng.random(n) < 0.05
        las.overlap = rng.random(n) < 0.05
    else:
        las.scan_angle_rank = np.clip(np.cumsum(rng.integers(-1, 2, n)), -90, 90)
    if "gps_time" in las.point_format.dimension_names:
        new_pulse = returns <= 1
        times = 1.0e8 + np.cumsum(np.where(new_pulse, 1e-5, 0.0)) + np.arange(n) * 1e-9 * 0
        far = rng.random(n) < 0.005
        times = times + np.cumsum(np.where(far, rng.normal(0, 1e4, n), 0.0))
        other = rng.random(n) < 0.03
        times[other] = times[other] - 37.0
        las.gps_time = times
    if "red" in las.point_format.dimension_names:
        for name in ("red", "green", "blue"):
            walk = np.cumsum(rng.integers(-600, 601, n)) + 30000
            jump = rng.random(n) < 0.02
            walk[jump] = rng.integers(0, 65536, int(jump.sum()))
            setattr(las, name, np.clip(walk, 0, 65535))
        grey = rng.random(n) < 0.05
        las.green[grey] = las.red[grey]
        las.blue[grey] = las.red[grey]
    if "wavepacket_index" in las.point_format.dimension_names:
        las.wavepacket_index = np.where(rng.random(n) < 0.05, rng.integers(0, 256, n), 1)
        offsets = np.cumsum(rng.integers(0, 400, n))
        jump = rng.random(n) < 0.01
        offsets[jump] += rng.integers(0, 1 << 40, int(jump.sum()))
        las.wavepacket_offset = offsets.astype(np.uint64)
        las.wavepacket_size = rng.integers(100, 400, n)
        for name in ("return_point_wave_location", "x_t", "y_t", "z_t"):
            setattr(las, name, rng.normal(0, 1, n).astype(np.float32))
    if "nir" in las.point_format.dimension_names:
        las.nir = np.clip(np.cumsum(rng.integers(-500, 501, n)) + 20000, 0, 65535)
    for index in range(int(extra)):
        setattr(las, "extra%d" % index, np.where(rng.random(n) < 0.3, rng.integers(0, 256, n), index))
    return las


def random(point_format, count, seed, laz, las, extra="0", channels="4", by="lazrs"):
    import laspy
    data = random_points(point_format, count, seed, extra, channels)
    data.write(las, do_compress=False)
    backend = {"lazrs": laspy.LazBackend.Lazrs, "laszip": laspy.LazBackend.Laszip}[by]
    data.write(laz, do_compress=True, laz_backend=backend)
    print(len(data.points))


def compress(las, laz):
    import laspy
    laspy.read(las).write(laz, do_compress=True, laz_backend=laspy.LazBackend.Lazrs)


def laszip_vlr(laz):
    """The header laspy reads, the file's bytes and the laszip VLR's payload."""
    import laspy
    with laspy.open(laz) as reader:
        header = reader.header
    raw = open(laz, "rb").read()
    # laspy keeps the laszip VLR to itself: read its payload from the file.
    record = raw.find(b"laszip encoded", 0, header.offset_to_point_data) - 2
    length = int.from_bytes(raw[record + 20:record + 22], "little")
    return header, raw, raw[record + 54:record + 54 + length]


def decompress(laz, out):
    import lazrs
    header, raw, vlr = laszip_vlr(laz)
    size = header.point_format.size * header.point_count
    results = []
    for kind in (lazrs.ParLasZipDecompressor, lazrs.LasZipDecompressor):
        source = io.BytesIO(raw)
        source.seek(header.offset_to_point_data)
        records = bytearray(size)
        kind(source, vlr).decompress_many(records)
        results.append(records)
    if results[0] != results[1]:
        sys.exit("the chunk table's decompression differs from the stream's")
    open(out, "wb").write(results[0])
    print(header.point_count, header.point_format.id)


def best_of(repeats, body):
    import time
    times = []
    for _ in range(int(repeats)):
        start = time.perf_counter()
        body()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_compress(las, repeats="1"):
    import laspy
    import lazrs
    with laspy.open(las) as reader:
        header = reader.header
    raw = open(las, "rb").read()
    start = header.offset_to_point_data
    records = raw[start:start + header.point_format.size * header.point_count]
    extra = header.point_format.num_extra_bytes
    result = {"version": "laspy %s, lazrs" % laspy.__version__}

    def compress(parallel):
        vlr = lazrs.LazVlr.new_for_compression(header.point_format.id, extra)
        kind = lazrs.ParLasZipCompressor if parallel else lazrs.LasZipCompressor
        compressor = kind(io.BytesIO(), vlr)
        compressor.compress_many(records)
        compressor.done()

    for name, parallel in (("laz compress", True), ("laz compress 1 core", False)):
        result[name] = best_of(repeats, lambda: compress(parallel))
    print(json.dumps(result))


def bench(laz, repeats="1"):
    import laspy
    import lazrs
    header, raw, vlr = laszip_vlr(laz)
    start = header.offset_to_point_data
    size = header.point_format.size * header.point_count
    result = {"version": "laspy %s, lazrs %s" % (laspy.__version__, getattr(lazrs, "__version__", "?"))}

    def decompress(parallel):
        source = io.BytesIO(raw)
        source.seek(start)
        kind = lazrs.ParLasZipDecompressor if parallel else lazrs.LasZipDecompressor
        kind(source, vlr).decompress_many(bytearray(size))

    for name, parallel in (("laz decompress", True), ("laz decompress 1 core", False)):
        result[name] = best_of(repeats, lambda: decompress(parallel))
    result["laz read"] = best_of(
        repeats, lambda: laspy.read(laz, laz_backend=laspy.LazBackend.LazrsParallel))
    print(json.dumps(result))


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    {"check": check, "random": random, "compress": compress, "decompress": decompress,
     "laszip-read": laszip_read, "copc-levels": copc_levels, "bench": bench, "bench-compress": bench_compress}[command](*arguments)
