#!/usr/bin/env bash
# Installs what a fresh machine lacks, builds, and runs impetus. With no arguments: the demo scene.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh" >/dev/null
build=${IMPETUS_BUILD_DIR:-$root/build}
if [ $# -eq 0 ]; then
  set -- run "$root/scenes/double_pendulum_drop.xml" --out "$root/runs/double_pendulum_drop"
fi
exec "$build/impetus" "$@"
