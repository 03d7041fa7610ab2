#!/usr/bin/env bash
# Checks the layers of docs/architecture.md from the `import` lines: each target may
# import only the project's modules listed for it below (system modules such as
# Foundation are not checked). Prints each import that breaks the rule, with its file
# and line, and fails; prints nothing when every import keeps to it.
#   Core     the model and the algorithms: none of ours
#   Formats  files in and out: Core and the C decoders
#   Session  what the window and the command line share: Core, Formats
#   Render   drawing: Core, GL, EGL
#   App      the window: Core, Session, Render, GL, GLFW, Dear ImGui; never Formats
#   CLI      the commands: Core, Formats, Session, Render, App (only to open the window)
#   Bench    the benchmarks: CLI, Core, Formats, Session, Render
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

declare -A allowed=(
  [CloudScrubCore]=""
  [CloudScrubFormats]="CloudScrubCore CTurboJPEG COpenEXR CPNG CZip CFFmpeg CLZF"
  [CloudScrubSession]="CloudScrubCore CloudScrubFormats"
  [CloudScrubRender]="CloudScrubCore CGL CEGL"
  [CloudScrubApp]="CloudScrubCore CloudScrubSession CloudScrubRender CGL CGLFW CImGuiBridge"
  [CloudScrubCLI]="CloudScrubCore CloudScrubFormats CloudScrubSession CloudScrubRender CloudScrubApp"
  [CloudScrubBench]="CloudScrubCLI CloudScrubCore CloudScrubFormats CloudScrubSession CloudScrubRender"
  [cloudscrub]="CloudScrubCLI CloudScrubBench"
  [ShaderEmbedder]=""
)

# The project's own modules: every folder under Sources.
ours=" $(find Sources -mindepth 1 -maxdepth 1 -type d -printf '%f ') "
status=0
for target in Sources/*/; do
  target=$(basename "$target")
  # The C shims hold module maps and headers, no Swift.
  [ -n "$(find "Sources/$target" -name '*.swift' -print -quit)" ] || continue
  if [[ ! -v allowed[$target] ]]; then
    echo "Sources/$target: a target with no rule in scripts/check-layers.sh"
    status=1
    continue
  fi
  while IFS=: read -r file line text; do
    module=$(sed -E 's/^[[:space:]]*(@testable[[:space:]]+)?import[[:space:]]+([A-Za-z0-9_]+).*/\2/' <<<"$text")
    [[ "$ours" == *" $module "* ]] || continue
    if [[ " ${allowed[$target]} " != *" $module "* ]]; then
      echo "$file:$line: $target must not import $module"
      status=1
    fi
  done < <(grep -rnE --include='*.swift' '^[[:space:]]*(@testable[[:space:]]+)?import[[:space:]]+' "Sources/$target" || true)
done
exit $status
