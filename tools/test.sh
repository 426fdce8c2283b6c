#!/usr/bin/env bash
# Installs what a fresh machine lacks, builds optimised, runs every test (ctest), then the
# behaviour-identity check (tools/identity/check.py: every scene under every model, bit for bit against
# the committed baseline; it skips, saying why, on a build whose fingerprint differs from the baseline's).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh"
build=${IMPETUS_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"
python3 "$root/tools/identity/check.py" --build "$build" --jobs "$(nproc)"
