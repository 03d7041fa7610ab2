#!/usr/bin/env bash
# Benchmarks (not part of the tests): builds in release and runs `cloudscrub bench`.
# Open3D's figures appear beside ours when it is installed: pip install open3d
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/install-deps.sh scripts/debian-packages.txt scripts/debian-packages-test.txt \
  scripts/debian-packages-bench.txt
swift build -c release --product cloudscrub
"$(swift build -c release --show-bin-path)/cloudscrub" bench "$@"
