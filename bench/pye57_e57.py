#!/usr/bin/env python3
"""pye57's side of the E57 benchmark: times reading an E57 file CloudScrub wrote and
writing the same points back with pye57 (libE57Format underneath).

Prints one JSON object of best times in seconds; exits 3 when pye57 is not installed.
For benchmarks only: the tests that need pye57 skip without it.
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
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    try:
        import pye57
    except ImportError:
        print("pye57 is not installed", file=sys.stderr)
        return 3

    def read():
        # The fields pye57 does not know (normals, CloudScrub's attributes) are skipped.
        return pye57.E57(args.input).read_scan_raw(0, ignore_unsupported_fields=True)

    def write(data):
        if os.path.exists(args.output):
            os.remove(args.output)
        out = pye57.E57(args.output, mode="w")
        out.write_scan_raw(data)
        out.close()

    data = read()
    fields = ["cartesianX", "cartesianY", "cartesianZ", "colorRed", "colorGreen", "colorBlue"]
    data = {key: data[key] for key in fields}
    results = {"version": getattr(pye57.__version__, "__version__", "?")}
    results["read"] = best(args.repeats, read)
    results["write"] = best(args.repeats, lambda: write(data))
    if os.path.exists(args.output):
        os.remove(args.output)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
