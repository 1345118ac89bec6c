#!/usr/bin/env bash
# Runs every scenario in scenarios/ with two builds and checks that each summary.json is
# byte-identical: a speed change must not change a single result.
#   scripts/compareSummaries.sh <reference-root> [<candidate-root>]
# Each root is a folder holding dist/ (a build of the project); the candidate defaults to
# this checkout. Reference summaries are cached in <reference-root>/summaries/.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
reference="$(cd "$1" && pwd)"
candidate="$(cd "${2:-$here}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for scenario in "$here"/scenarios/*.yaml; do
  name="$(basename "$scenario" .yaml)"
  cached="$reference/summaries/$name.summary.json"
  if [ ! -f "$cached" ]; then
    mkdir -p "$reference/summaries"
    node "$reference/dist/src/cli/main.js" run "$scenario" --no-charts --no-progress --out "$work/ref-$name" >/dev/null
    cp "$work/ref-$name/summary.json" "$cached"
  fi
  node "$candidate/dist/src/cli/main.js" run "$scenario" --no-charts --no-progress --out "$work/new-$name" >/dev/null
  if cmp -s "$cached" "$work/new-$name/summary.json"; then
    echo "same      $name"
  else
    echo "DIFFERENT $name"
    status=1
  fi
done
exit $status
