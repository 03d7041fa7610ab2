#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/debian-packages.txt (or in the lists
# given as arguments) that are missing. Idempotent, and silent when nothing is missing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lists=("$@")
if [ ${#lists[@]} -eq 0 ]; then lists=("$here/debian-packages.txt"); fi

missing=()
while read -r package; do
  [ -n "$package" ] || continue
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done < <(cat "${lists[@]}" | sed -e 's/#.*//' | awk 'NF { print $1 }')

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
  echo "error: the Swift toolchain is not on PATH (nor in /opt/swift/usr/bin)" >&2
  exit 1
fi
