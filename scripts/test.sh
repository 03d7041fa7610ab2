#!/usr/bin/env bash
# The README's second command: installs what is missing, builds, and runs every test.
# Arguments go to `swift test` (`./scripts/test.sh --filter LASFormatTests`).
#
# The suite is built optimised, with testable imports, in a build folder of its own
# (.build/tests): optimised, it runs in a fifth of a debug build's time, and its own
# folder keeps run.sh's release build and this one from rebuilding each other.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/install-deps.sh scripts/debian-packages.txt scripts/debian-packages-test.txt
swift test -c release --scratch-path .build/tests "$@"
