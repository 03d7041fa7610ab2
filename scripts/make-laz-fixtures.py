#!/usr/bin/env python3
"""Writes the LAS twin of each LAZ fixture that has none, for the LAZ reader's tests.

The LAZ files in Tests/CloudScrubFormatsTests/Fixtures/laz come from laspy's test suite
(BSD licence, LICENSE-laspy.txt there). A twin holds the same header, records and VLRs,
uncompressed, as laspy (with lazrs) decompresses them:

    pip install laspy lazrs
    python3 scripts/make-laz-fixtures.py
"""
import pathlib

import laspy

folder = pathlib.Path(__file__).resolve().parent.parent / "Tests/CloudScrubFormatsTests/Fixtures/laz"
for laz in sorted(folder.glob("*.laz")):
    twin = laz.with_suffix(".las")
    if twin.exists():
        continue
    data = laspy.read(laz, laz_backend=laspy.LazBackend.Lazrs)
    # laspy cannot write COPC's own records; the twin keeps the others.
    data.header.vlrs = laspy.vlrs.vlrlist.VLRList(v for v in data.header.vlrs if v.user_id != "copc")
    if data.evlrs is not None:
        data.evlrs = laspy.vlrs.vlrlist.VLRList(v for v in data.evlrs if v.user_id != "copc")
    data.write(twin, do_compress=False)
    print(f"{laz.name} -> {twin.name}: {len(data.points)} points")
