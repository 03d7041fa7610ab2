#!/usr/bin/env python3
"""Writes the LAZ reader's fixtures in Tests/CloudScrubFormatsTests/Fixtures/laz: small
LAZ files of the point formats laspy's test suite has none of (random points, as
bench/laz_peers.py makes them, compressed by lazrs or by LASzip itself through laspy's
laszip backend), and the LAS twin of each LAZ file
that has none (the same header, records and VLRs, uncompressed, as laspy with lazrs
decompresses them, or LASzip itself for the item versions lazrs does not read). The
other LAZ files there come from the test suites of laspy (BSD licence,
LICENSE-laspy.txt there) and lazpy (`lazpy-…`, Apache licence, LICENSE-lazpy.txt).

    pip install laspy lazrs laszip
    python3 scripts/make-laz-fixtures.py
"""
import pathlib
import sys

import laspy

root = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(root / "bench"))
import laz_peers  # noqa: E402

folder = root / "Tests/CloudScrubFormatsTests/Fixtures/laz"
# (point format, points, extra bytes, scanner channels, compressor)
for point_format, count, extra, channels, backend in [
        (0, 300, 0, 1, "lazrs"), (1, 300, 0, 1, "lazrs"), (2, 300, 0, 1, "lazrs"),
        (5, 300, 0, 1, "lazrs"), (8, 300, 2, 1, "lazrs"), (6, 300, 0, 4, "lazrs"),
        (7, 3000, 3, 4, "laszip"), (8, 3000, 2, 3, "lazrs"),
        # A dozen points: the fuzz target's seeds, small enough to run thousands a second.
        (0, 12, 0, 1, "lazrs"), (1, 12, 1, 1, "lazrs"), (2, 12, 0, 1, "lazrs"),
        (3, 12, 2, 1, "lazrs"), (6, 12, 0, 2, "lazrs"), (7, 12, 1, 1, "lazrs"),
        (8, 12, 0, 1, "lazrs")]:
    name = "random-format%d%s.laz" % (point_format, "-channels" if channels > 1 else "")
    if count < 100:
        name = "tiny-format%d.laz" % point_format
    if (folder / name).exists():
        continue
    data = laz_peers.random_points(point_format, count, point_format, extra, channels)
    compressor = laspy.LazBackend.Laszip if backend == "laszip" else laspy.LazBackend.Lazrs
    data.write(folder / name, do_compress=True, laz_backend=compressor)
    print(name)
for laz in sorted(folder.glob("*.laz")):
    twin = laz.with_suffix(".las")
    if twin.exists():
        continue
    try:
        data = laspy.read(laz, laz_backend=laspy.LazBackend.Lazrs)
    except Exception:  # lazrs reads no version 4 items
        data = laspy.read(laz, laz_backend=laspy.LazBackend.Laszip)
    # laspy cannot write COPC's own records; the twin keeps the others.
    data.header.vlrs = laspy.vlrs.vlrlist.VLRList(v for v in data.header.vlrs if v.user_id != "copc")
    if data.evlrs is not None:
        data.evlrs = laspy.vlrs.vlrlist.VLRList(v for v in data.evlrs if v.user_id != "copc")
    data.write(twin, do_compress=False)
    print(f"{laz.name} -> {twin.name}: {len(data.points)} points")
