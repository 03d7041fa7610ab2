#!/usr/bin/env bash
# The README's first command: installs what is missing, builds in release, and runs
# the main job on the sample in Assets/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/install-deps.sh
swift build -c release --product cloudscrub
bin=$(swift build -c release --show-bin-path)/cloudscrub

mkdir -p output
"$bin" info Assets/sample.ply
"$bin" export Assets/sample.ply -o output/sample.ply
echo
echo "exported the merged cloud to output/sample.ply:"
"$bin" info output/sample.ply
