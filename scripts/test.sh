#!/usr/bin/env bash
# The README's second command: installs what is missing, builds, and runs every test.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash scripts/install-deps.sh scripts/debian-packages.txt scripts/debian-packages-test.txt
swift build --build-tests
swift test --skip-build "$@"
