#!/usr/bin/env bash
# Installs CloudScrub like a desktop tool: the binary, a .desktop entry, MIME types for
# the files it opens (PLY, PCD, LAS, E57, Record3D .r3d, .csrec) and an icon, so those
# files open from the file manager.
#
#   scripts/install.sh [--uninstall]       PREFIX defaults to ~/.local
#   PREFIX=/opt/cloudscrub scripts/install.sh
#   CLOUDSCRUB_BINARY=path scripts/install.sh   installs that binary instead of building
#
# Everything installed is listed in PREFIX/share/cloudscrub/install-manifest, with the
# folders the install created; --uninstall (make uninstall) removes exactly those.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${PREFIX:-$HOME/.local}
manifest="$prefix/share/cloudscrub/install-manifest"

refresh_databases() {
  if [ -d "$prefix/share/mime/packages" ] && command -v update-mime-database >/dev/null; then
    update-mime-database "$prefix/share/mime" >/dev/null 2>&1 || true
  fi
  if [ -d "$prefix/share/applications" ] && command -v update-desktop-database >/dev/null; then
    update-desktop-database "$prefix/share/applications" >/dev/null 2>&1 || true
  fi
}

uninstall() {
  if [ ! -f "$manifest" ]; then
    echo "error: nothing to uninstall: $manifest does not exist" >&2
    exit 1
  fi
  local kind path dirs=()
  while read -r kind path; do
    if [ "$kind" = file ]; then rm -f "$path"; fi
  done <"$manifest"
  refresh_databases
  # The caches the databases' tools generate count as installed where the install made
  # their folder and nothing else is left in it.
  if grep -q '^mime-database ' "$manifest" &&
    [ -z "$(ls -A "$prefix/share/mime/packages" 2>/dev/null)" ]; then
    find "$prefix/share/mime" -mindepth 1 -maxdepth 1 ! -name packages -exec rm -rf {} +
  fi
  if grep -qx "dir $prefix/share/applications" "$manifest.dirs" 2>/dev/null &&
    [ "$(ls -A "$prefix/share/applications")" = mimeinfo.cache ]; then
    rm -f "$prefix/share/applications/mimeinfo.cache"
  fi
  if [ -f "$manifest.dirs" ]; then
    mapfile -t dirs < <(sed -n 's/^dir //p' "$manifest.dirs" | sort -r)
  fi
  rm -f "$manifest" "$manifest.dirs"
  # Then the folders the install created, deepest first, each only if empty.
  for path in "${dirs[@]}"; do rmdir "$path" 2>/dev/null || true; done
  echo "uninstalled CloudScrub from $prefix"
}

if [ "${1:-}" = "--uninstall" ]; then
  uninstall
  exit 0
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/install.sh [--uninstall]   (PREFIX=... to choose where)" >&2
  exit 2
fi

binary=${CLOUDSCRUB_BINARY:-}
if [ -z "$binary" ]; then
  source "$root/scripts/env.sh"
  bash "$root/scripts/install-deps.sh"
  (cd "$root" && swift build -c release --product cloudscrub)
  binary="$(cd "$root" && swift build -c release --show-bin-path)/cloudscrub"
fi
if [ ! -x "$binary" ]; then
  echo "error: no executable at $binary" >&2
  exit 1
fi

created_dirs=()
make_dir() {
  # Records each folder this install creates, so uninstall removes it if empty.
  local dir=$1 missing=()
  while [ ! -d "$dir" ]; do
    missing+=("$dir")
    dir=$(dirname "$dir")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    mkdir -p "$1"
    created_dirs+=("${missing[@]}")
  fi
}

mime_existed=no
if [ -d "$prefix/share/mime/packages" ]; then mime_existed=yes; fi

files=(
  "bin/cloudscrub|$binary|755"
  "share/applications/cloudscrub.desktop|$root/packaging/cloudscrub.desktop|644"
  "share/mime/packages/cloudscrub.xml|$root/packaging/cloudscrub-mime.xml|644"
  "share/icons/hicolor/scalable/apps/cloudscrub.svg|$root/packaging/cloudscrub.svg|644"
)
make_dir "$prefix/share/cloudscrub"
entries=()
for entry in "${files[@]}"; do
  IFS='|' read -r target source mode <<<"$entry"
  make_dir "$(dirname "$prefix/$target")"
  install -m "$mode" "$source" "$prefix/$target"
  entries+=("file $prefix/$target")
done
if [ "$mime_existed" = no ]; then entries+=("mime-database $prefix/share/mime"); fi
printf '%s\n' "${entries[@]}" >"$manifest"
# Folders created by an earlier install stay listed, so a reinstall keeps them.
{
  grep '^dir ' "$manifest.dirs" 2>/dev/null || true
  for dir in "${created_dirs[@]}"; do echo "dir $dir"; done
} | sort -u >"$manifest.dirs.new"
mv "$manifest.dirs.new" "$manifest.dirs"
refresh_databases

echo "installed CloudScrub into $prefix:"
sed 's/^file /  /;/^mime-database/d' "$manifest"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; add it to run 'cloudscrub' by name." ;;
esac
