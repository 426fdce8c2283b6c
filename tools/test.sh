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
# The regression suite against its goldens (regress/), and Slurm's hand-off where Slurm is installed.
"$root/tools/regress.sh"
if [ "$(id -u)" = 0 ] && command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null; then
  "$root/tools/slurm-local.sh"
fi
