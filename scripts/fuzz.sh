#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (address sanitizer on) and runs them.
#
#   scripts/fuzz.sh TARGET [--seconds N] [--runs N]   one target (default 60 s)
#   scripts/fuzz.sh --all [--seconds N] [--runs N]    every target in turn
#   scripts/fuzz.sh --list                            the targets
#
# --runs N stops each target after N executions instead (with --seconds as a cap).
# --timeout N counts one input that runs longer than N seconds as a hang (default
# 10; a long campaign at low priority on a busy machine wants more).
# Corpora grow in .build-fuzz/corpus/TARGET, seeded at run time from the project's
# writers and ../shared/data; crash, leak and timeout inputs land in
# .build-fuzz/artifacts/TARGET. The last line is "N targets, E executions, C crashes";
# the exit status is 1 when any target crashed, leaked or timed out.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

seconds=60
runs=0
timeout=10
targets=()
all=0
list=0
while [ $# -gt 0 ]; do
  case "$1" in
    --all) all=1 ;;
    --list) list=1 ;;
    --seconds) seconds="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --timeout) timeout="$2"; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done

work="$PWD/.build-fuzz"
mkdir -p "$work"
echo "building the fuzz targets (release, -sanitize=fuzzer,address)..." >&2
swift build -c release --package-path Fuzz --scratch-path "$work/build" \
  --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address >"$work/build.log" 2>&1 || {
  tail -40 "$work/build.log" >&2
  echo "fuzz.sh: the build failed (log: $work/build.log)" >&2
  exit 1
}
binary="$work/build/release/cloudscrub-fuzz"

declare -A maxlen
while read -r name length; do maxlen["$name"]="$length"; done \
  < <(CLOUDSCRUB_FUZZ_LIST=1 "$binary")
if [ "$list" = 1 ]; then
  printf '%s\n' "${!maxlen[@]}" | sort
  exit 0
fi
if [ "$all" = 1 ]; then
  mapfile -t targets < <(printf '%s\n' "${!maxlen[@]}" | sort)
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "usage: scripts/fuzz.sh TARGET|--all [--seconds N] [--runs N] (--list for the targets)" >&2
  exit 2
fi
for target in "${targets[@]}"; do
  [ -n "${maxlen[$target]:-}" ] || { echo "fuzz.sh: no target '$target' (try --list)" >&2; exit 2; }
done

shared="$(cd .. && pwd)/shared/data"
# Real files for each target's corpus, copied at run time (never into the repo).
seed_shared() {
  local target="$1" into="$2"
  [ -d "$shared" ] || return 0
  case "$target" in
    ply) find "$shared/ply" -name '*.ply' -size -64k 2>/dev/null | head -40 ;;
    record3d-metadata) ls "$shared"/record3d-exr-*/metadata.json 2>/dev/null ;;
    r3d) ls "$shared/r3d-metadata-only/data.r3d" 2>/dev/null ;;
    exr) ls "$shared"/record3d-exr-desk/depth/{0,1,2}.exr 2>/dev/null ;;
    jpeg) ls "$shared/arkit-single-frame/image.jpg" 2>/dev/null | head -1 ;;
    png) ls "$shared/arkit-single-frame/arkit_depth.png" "$shared"/stray-scanner-room/confidence/000000.png 2>/dev/null ;;
  esac | while read -r file; do
    [ "$(stat -c %s "$file")" -le "${maxlen[$target]}" ] || continue
    cp "$file" "$into/shared-$(basename "$(dirname "$file")")-$(basename "$file")"
  done
  if [ "$target" = stray-csv ]; then
    for pick in 0:odometry.csv 1:camera_matrix.csv; do
      local file="$shared/stray-scanner-room/${pick#*:}"
      [ -f "$file" ] || continue
      { printf "\\x0${pick%%:*}"; head -c 60000 "$file"; } > "$into/shared-stray-${pick#*:}"
    done
  fi
  if [ "$target" = lzfse ]; then
    find Tests/CloudScrubFormatsTests/Fixtures/lzfse -name '*.lzfse' -size -64k \
      -exec cp {} "$into/" \;
  fi
}

# The targets write each input into a scratch folder before opening it: in memory
# (/dev/shm) where there is one, since a file system on disk flushes a file that is
# truncated and rewritten, and that flush would be most of an input's time.
scratch_root="$work/tmp"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then scratch_root="/dev/shm/cloudscrub-fuzz-$$"; fi
trap 'rm -rf "/dev/shm/cloudscrub-fuzz-$$"' EXIT

total_runs=0
total_crashes=0
count=0
for target in "${targets[@]}"; do
  corpus="$work/corpus/$target"
  seeds="$work/seeds/$target"
  artifacts="$work/artifacts/$target"
  scratch="$scratch_root/$target"
  rm -rf "$seeds" "$scratch"
  mkdir -p "$corpus" "$seeds" "$artifacts" "$scratch"
  log="$work/$target.log"
  TMPDIR="$scratch" CLOUDSCRUB_FUZZ_TARGET="$target" CLOUDSCRUB_FUZZ_WRITE_SEEDS="$seeds" \
    "$binary" >"$log" 2>&1
  seed_shared "$target" "$seeds"
  cp Tests/FuzzRegressions/"$target"/* "$seeds/" 2>/dev/null || true
  limits=(-max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=3072 -malloc_limit_mb=2048
    -max_len="${maxlen[$target]}" -print_final_stats=1 -artifact_prefix="$artifacts/")
  [ "$runs" -gt 0 ] && limits+=(-runs="$runs")
  status=0
  TMPDIR="$scratch" CLOUDSCRUB_FUZZ_TARGET="$target" ASAN_OPTIONS=detect_leaks=1 \
    "$binary" "${limits[@]}" "$corpus" "$seeds" >>"$log" 2>&1 || status=$?
  rm -rf "$scratch"
  executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  executions=${executions:-0}
  crashes=0
  if [ "$status" -ne 0 ]; then
    crashes=1
    echo "$target: FAILED (exit $status); log $log" >&2
    grep -E 'ERROR|SUMMARY|Test unit written|fatal error|Fatal error|timeout' "$log" | head -8 >&2
  fi
  echo "$target: $executions executions, $crashes crashes, $(ls "$corpus" | wc -l) corpus files"
  total_runs=$((total_runs + executions))
  total_crashes=$((total_crashes + crashes))
  count=$((count + 1))
done
echo "$count targets, $total_runs executions, $total_crashes crashes"
[ "$total_crashes" -eq 0 ]
