#!/usr/bin/env bash
# Checks that the types docs/architecture.md names exist: every name in backticks that
# starts with an upper-case letter (`ViewerState`, `DocumentOpener.open`,
# `BackgroundWork<Value>`, `StreamingLoad(reading:)`: the leading name is checked) must
# be declared by a Swift file under Sources/ or Tests/ (class, struct, enum, protocol,
# actor, typealias or extension NAME), or be one of the project's modules (a folder
# under Sources/ or Tests/). Backticked text with a space or a slash (a command line, a
# path), a file name (`ViewerApp+Turn.swift`), a C constant (`GL_RENDERER`) and code
# blocks are skipped. Prints each name that nothing declares, with its line, and fails;
# prints nothing when every name exists.
#   usage: scripts/check-doc-types.sh [DOC]   (DOC: a path from the repository's root,
#   or an absolute one; docs/architecture.md by default)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

doc=${1:-docs/architecture.md}
if [ ! -f "$doc" ]; then
  echo "$doc: no such file" >&2
  exit 2
fi

# Every name a Swift file declares, and the project's modules.
declare -A known=()
while read -r name; do
  known[$name]=1
done < <(
  grep -rhoE --include='*.swift' \
    '\b(class|struct|enum|protocol|actor|typealias|extension)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
    Sources Tests | awk '{ print $2 }' | sort -u
  find Sources Tests -mindepth 1 -maxdepth 1 -type d -printf '%f\n'
)

# LINE<TAB>TEXT for each backticked span outside fenced code blocks.
spans() {
  awk '
    /^[[:space:]]*```/ { fenced = !fenced; next }
    fenced { next }
    {
      line = $0
      while (match(line, /`[^`]+`/)) {
        printf "%d\t%s\n", NR, substr(line, RSTART + 1, RLENGTH - 2)
        line = substr(line, RSTART + RLENGTH)
      }
    }' "$1"
}

ident='[A-Z][A-Za-z0-9_]*'
member='[A-Za-z_][A-Za-z0-9_]*'
# A name, then any of: .member, <generic arguments>, (labels:).
typelike="^${ident}(\\.${member}|<.*>|\\(.*\\))*\$"
file_name='\.(swift|md|txt|py|sh|json|yml|yaml|glsl|vert|frag|h|c|cpp|modulemap)$'
c_constant='^[A-Z][A-Z0-9]*_[A-Z0-9_]*$'

status=0
while IFS=$'\t' read -r line text; do
  [[ "$text" == *" "* || "$text" == */* ]] && continue
  [[ "$text" =~ $typelike ]] || continue
  [[ "$text" =~ $file_name ]] && continue
  name=$(grep -oE "^${ident}" <<<"$text")
  [[ "$name" =~ $c_constant ]] && continue
  if [[ ! -v known[$name] ]]; then
    echo "$doc:$line: $name is declared by no Swift file under Sources/ or Tests/"
    status=1
  fi
done < <(spans "$doc")
exit $status
