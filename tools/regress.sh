#!/usr/bin/env bash
# The project's regression suite: runs regress/regress.toml with `impetus batch` (one job per core)
# and compares the runs with the committed goldens in regress/goldens/ (`impetus compare`; exit 2 on
# a regression). tools/test.sh runs it.
#
#   tools/regress.sh            run and compare (report: compare.md/.html in the output folder)
#   tools/regress.sh --update   run and make the runs the new goldens (after a change of the physics
#                               that is meant; commit regress/goldens/ with it)
#
# Output goes to $IMPETUS_BUILD_DIR/regress (default build/regress). Goldens keep summary.json and
# trajectory.csv of each run (run.json where a run has no summary): what compare reads.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${IMPETUS_BUILD_DIR:-$root/build}
impetus=$build/impetus
out=$build/regress
goldens=$root/regress/goldens
rm -rf "$out"
status=0
"$impetus" batch "$root/regress/regress.toml" --out "$out" --jobs "$(nproc)" || status=$?
[ "$status" -le 3 ] || { echo "regress: impetus batch failed ($status)" >&2; exit "$status"; }
if [ "${1:-}" = --update ]; then
  rm -rf "$goldens"
  mkdir -p "$goldens"
  for run in "$out"/*/; do
    id=$(basename "$run")
    mkdir -p "$goldens/$id"
    if [ -f "$run/summary.json" ]; then
      cp "$run/summary.json" "$run/trajectory.csv" "$goldens/$id/"
    else
      cp "$run/run.json" "$goldens/$id/"
    fi
  done
  echo "regress: goldens rewritten in $goldens ($(du -sh "$goldens" | cut -f1)); review and commit them"
  exit 0
fi
exec "$impetus" compare "$goldens" "$out"
