#!/usr/bin/env python3
"""LZFSE test vectors, made with Apple's reference encoder (PyPI's pyliblzfse).

How to run (from the project root):
    pip install pyliblzfse            # builds the reference C library with gcc
    python3 scripts/make-lzfse-vectors.py
It rewrites Tests/CloudScrubFormatsTests/Fixtures/lzfse/: for each vector NAME,
NAME.lzfse (the compressed stream) and, for the small ones, NAME.bin (the
expected bytes). The multi-megabyte input is not stored: the Swift tests rebuild
it with the same generator (LZFSETestData.structured in
Tests/CloudScrubFormatsTests/LZFSETestData.swift), so both must change together.
MANIFEST.txt lists sizes, CRC-32s and block kinds.

The benchmark (`cloudscrub bench lzfse`) also runs this script as the Python peer:
    python3 scripts/make-lzfse-vectors.py --bench FILE... [--repeats R]
prints one JSON object: seconds of liblzfse.decompress per file, best of R.

Python is for making vectors and for the peer only; the tests never need it.
"""

import json
import os
import struct
import sys
import time
import zlib

MASK64 = (1 << 64) - 1
FIXTURES = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "CloudScrubFormatsTests", "Fixtures", "lzfse")


class SplitMix64:
    """splitmix64; LZFSETestData.swift has the same generator."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


WORDS = [b"depth", b"confidence", b"frame", b"pose", b"intrinsics", b"point", b"cloud", b"scrub",
         b"voxel", b"normal", b"the", b"of", b"and", b"record3d", b"lidar", b"camera"]


def words(seed, size):
    """Lines of words from a 16-word list."""
    rng = SplitMix64(seed)
    out = bytearray()
    while len(out) < size:
        r = rng.next()
        for k in range(1 + (r >> 8) % 12):
            out += WORDS[(r >> (12 + 3 * k)) % 16] + b" "
        out += b"\n"
    return bytes(out[:size])


def structured(seed, size):
    """Repetitive, structured data: copies of earlier stretches (long matches),
    byte runs, little-endian counters and lines of words. Mirrored in Swift."""
    rng = SplitMix64(seed)
    out = bytearray()
    while len(out) < size:
        r = rng.next()
        kind = r % 8
        if kind < 3 and len(out) > 1024:
            distance = 1 + (r >> 8) % min(len(out), 200000)
            length = 16 + (r >> 32) % 2000
            start = len(out) - distance
            if distance >= length:
                out += out[start:start + length]
            else:
                for k in range(length):
                    out.append(out[start + k])
        elif kind == 3:
            out += bytes([(r >> 8) & 0xFF]) * (4 + (r >> 16) % 300)
        elif kind == 4:
            base = (r >> 8) & 0xFFFF
            for k in range(64):
                out += struct.pack("<I", base + k)
        else:
            for k in range(1 + (r >> 8) % 12):
                out += WORDS[(r >> (12 + 3 * k)) % 16] + b" "
            out += b"\n"
    return bytes(out[:size])


def depth_map(seed, width=256, height=192):
    """A smooth Float32 depth map in meters, whole millimetres plus a little noise."""
    rng = SplitMix64(seed)
    out = bytearray()
    for y in range(height):
        for x in range(width):
            mm = 800 + 3 * x + (y * y) // 40 + (x * y) // 97 + rng.next() % 3
            out += struct.pack("<f", mm / 1000.0)
    return bytes(out)


def confidence_map(width=256, height=192):
    """A UInt8 confidence map (0, 1, 2) in smooth patches, low at the borders."""
    out = bytearray()
    for y in range(height):
        for x in range(width):
            if x < 4 or y < 4 or x >= width - 4 or y >= height - 4:
                out.append(0)
            else:
                out.append(2 if (x // 32 + y // 24) % 5 else 1)
    return bytes(out)


def random_bytes(seed, size):
    rng = SplitMix64(seed)
    return bytes(rng.next() & 0xFF for _ in range(size))


def block_kinds(stream):
    """The magics of a stream's blocks, walking the headers."""
    kinds, offset = [], 0
    while offset + 4 <= len(stream):
        magic = stream[offset:offset + 4]
        kinds.append(magic.decode("ascii"))
        if magic == b"bvx$":
            break
        if magic == b"bvx-":
            offset += 8 + struct.unpack_from("<I", stream, offset + 4)[0]
        elif magic == b"bvxn":
            offset += 12 + struct.unpack_from("<I", stream, offset + 8)[0]
        elif magic == b"bvx2":
            f0, f1, f2 = struct.unpack_from("<QQQ", stream, offset + 8)
            offset += (f2 & 0xFFFFFFFF) + ((f0 >> 20) & 0xFFFFF) + ((f1 >> 40) & 0xFFFFF)
        elif magic == b"bvx1":
            lit, lmd = struct.unpack_from("<II", stream, offset + 20)
            offset += 772 + lit + lmd
        else:
            raise ValueError("unknown magic %r" % magic)
    return kinds


# The v2 header's fixed code for frequencies, indexed by the low 5 bits.
FREQ_NBITS = [2, 3, 2, 5, 2, 3, 2, 8, 2, 3, 2, 5, 2, 3, 2, 14] * 2
FREQ_VALUE = [0, 2, 1, 4, 0, 3, 1, -1, 0, 2, 1, 5, 0, 3, 1, -1, 0, 2, 1, 6, 0, 3, 1, -1, 0, 2, 1, 7, 0, 3, 1, -1]


def to_v1(stream):
    """Rewrites every bvx2 block of a stream as a bvx1 block (plain 772-byte header
    with 16-bit frequencies), which the reference decoder reads but its encoder
    never writes."""
    out, offset = bytearray(), 0
    while True:
        magic = stream[offset:offset + 4]
        if magic != b"bvx2":
            kinds_end = len(stream) if magic == b"bvx$" else None
            if kinds_end is None:
                raise ValueError("to_v1 expects only bvx2 blocks")
            out += stream[offset:]
            return bytes(out)
        raw = struct.unpack_from("<I", stream, offset + 4)[0]
        f0, f1, f2 = struct.unpack_from("<QQQ", stream, offset + 8)
        header_size = f2 & 0xFFFFFFFF
        field = lambda v, shift, width: (v >> shift) & ((1 << width) - 1)
        n_literals, lit_payload, n_matches = field(f0, 0, 20), field(f0, 20, 20), field(f0, 40, 20)
        literal_bits, lmd_bits = field(f0, 60, 3) - 7, field(f1, 60, 3) - 7
        lmd_payload = field(f1, 40, 20)
        states = [field(f1, 10 * i, 10) for i in range(4)]
        l_state, m_state, d_state = field(f2, 32, 10), field(f2, 42, 10), field(f2, 52, 10)
        table = stream[offset + 32:offset + header_size]
        accum, nbits, pos, freqs = 0, 0, 0, []
        for _ in range(360):
            while nbits <= 56 and pos < len(table):
                accum |= table[pos] << nbits
                nbits += 8
                pos += 1
            low = accum & 31
            n = FREQ_NBITS[low]
            if n == 8:
                value = 8 + ((accum >> 4) & 0xF)
            elif n == 14:
                value = 24 + ((accum >> 4) & 0x3FF)
            else:
                value = FREQ_VALUE[low]
            freqs.append(value)
            accum >>= n
            nbits -= n
        header = struct.pack("<4sIIIIII", b"bvx1", raw, lit_payload + lmd_payload, n_literals, n_matches,
                             lit_payload, lmd_payload)
        header += struct.pack("<i4Hi3H", literal_bits, *states, lmd_bits, l_state, m_state, d_state)
        header += struct.pack("<360H", *freqs) + b"\0\0"
        assert len(header) == 772
        out += header + stream[offset + header_size:offset + header_size + lit_payload + lmd_payload]
        offset += header_size + lit_payload + lmd_payload


def vectors():
    """(name, input, store the input?) for every vector."""
    return [
        ("empty", b"", True),
        ("one-byte", b"A", True),
        ("few-bytes", b"hello", True),
        ("lzvn-words", words(11, 2000), True),
        ("lzvn-runs", b"abcdefgh" * 100 + b"x" * 300 + bytes(range(256)) * 3, True),
        ("random-4k", random_bytes(5, 4096), True),
        ("text-64k", words(7, 65536), True),
        ("depth-256x192-f32", depth_map(3), True),
        ("confidence-256x192-u8", confidence_map(), True),
        ("structured-6m", structured(42, 6 * 1024 * 1024 + 123), False),
    ]


def generate():
    import liblzfse

    os.makedirs(FIXTURES, exist_ok=True)
    manifest = ["# name  input-bytes  compressed-bytes  crc32-of-input  blocks"]
    for name, data, store in vectors():
        stream = liblzfse.compress(data)
        # (liblzfse.decompress reports an error for an empty result, so skip that one.)
        assert not data or liblzfse.decompress(stream) == data
        with open(os.path.join(FIXTURES, name + ".lzfse"), "wb") as f:
            f.write(stream)
        if store:
            with open(os.path.join(FIXTURES, name + ".bin"), "wb") as f:
                f.write(data)
        kinds = block_kinds(stream)
        manifest.append("%s %d %d %08x %s" % (name, len(data), len(stream), zlib.crc32(data), ",".join(kinds)))
        if name == "text-64k":
            v1 = to_v1(stream)
            with open(os.path.join(FIXTURES, name + "-v1.lzfse"), "wb") as f:
                f.write(v1)
            manifest.append("%s-v1 %d %d %08x %s" % (name, len(data), len(v1), zlib.crc32(data),
                                                     ",".join(block_kinds(v1))))
    with open(os.path.join(FIXTURES, "MANIFEST.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    print("\n".join(manifest))


def bench(arguments):
    import liblzfse

    repeats, files = 3, []
    iterator = iter(arguments)
    for argument in iterator:
        if argument == "--repeats":
            repeats = int(next(iterator))
        else:
            files.append(argument)
    figures = {"version": "pyliblzfse"}
    for path in files:
        with open(path, "rb") as f:
            stream = f.read()
        best = float("inf")
        for _ in range(max(repeats, 1)):
            start = time.perf_counter()
            liblzfse.decompress(stream)
            best = min(best, time.perf_counter() - start)
        figures[os.path.basename(path)] = best
    print(json.dumps(figures))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--bench":
        bench(sys.argv[2:])
    else:
        generate()
