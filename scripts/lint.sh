#!/usr/bin/env bash
# Checks every Swift file against the repository's .swift-format, strictly (warnings
# fail too), and the layers' import rule (check-layers.sh). swift-format ships with the
# Swift toolchain; prints nothing when clean.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
if ! command -v swift-format >/dev/null 2>&1; then
  echo "error: swift-format is not on PATH (it ships with the Swift toolchain)" >&2
  exit 1
fi
swift-format lint --strict --recursive Sources Tests Fuzz Plugins Package.swift
# Each target imports only the layers below it (docs/architecture.md).
./scripts/check-layers.sh
./scripts/check-doc-types.sh
