#!/usr/bin/env bash
# The README's first command: installs what is missing, builds in release, and runs
# the main job on the samples: the PLY in Assets/ and a synthetic recording rendered
# from the analytic scene (deterministic; made once into output/). With a display it
# opens the viewer on the recording; with none it says so, renders pictures of both
# samples with EGL and exports the merged cloud.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/install-deps.sh
swift build -c release --product cloudscrub
bin=$(swift build -c release --show-bin-path)/cloudscrub

mkdir -p output
if [ ! -f output/sample.csrec ]; then
  "$bin" synth output/sample.csrec --frames 60 --noise 0.002
fi

if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "Opening the viewer on output/sample.csrec (drop other files on the window)."
  exec "$bin" view output/sample.csrec
fi

echo "No display (DISPLAY and WAYLAND_DISPLAY are unset), so no viewer window:"
echo "rendering pictures with EGL and exporting the merged cloud instead."
echo
echo "== the sample point cloud"
"$bin" info Assets/sample.ply
"$bin" render Assets/sample.ply -o output/sample-ply.png --size 1280x720
echo "wrote output/sample-ply.png"

echo
echo "== the sample recording"
"$bin" info output/sample.csrec
"$bin" render output/sample.csrec -o output/sample.png --size 1280x720
"$bin" render output/sample.csrec -o output/sample-frame30.png --size 1280x720 --camera capture:30 \
  --color confidence
echo "wrote output/sample.png and output/sample-frame30.png"
"$bin" export output/sample.csrec -o output/sample-merged.ply --min-confidence medium
"$bin" info output/sample-merged.ply
