#!/usr/bin/env bash
# Installs what a fresh machine lacks, builds optimised, runs every test (ctest), then the
# behaviour-identity check (tools/identity/check.py: every scene under every model, bit for bit against
# the committed baseline of the build's fingerprint; it skips, saying why, where no baseline has that fingerprint).
#
# IMPETUS_PORTABLE=1 first builds the contact solvers' tests a second time for x86-64's baseline
# (-DIMPETUS_NATIVE=OFF: SSE2, no FMA) in build-portable/ and runs them: their rounding differs from the
# native build's (FMA contractions, vector widths), and a solver test that held by a rounding accident on
# one would fail on the other. It is off by default (CI included): the second build of the contact
# library and its tests roughly doubles their compile time on CI's two cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
build=${IMPETUS_BUILD_DIR:-$root/build}
if [[ "${IMPETUS_PORTABLE:-0}" == 1 ]]; then
  portable=${build}-portable
  cmake -S "$root" -B "$portable" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPETUS_NATIVE=OFF >/dev/null
  cmake --build "$portable" -j "$(nproc)" --target test_contact
  (cd "$portable" && ./tests/test_contact --gtest_brief=1)
fi
"$root/tools/build.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)" "$@"
python3 "$root/tools/identity/check.py" --build "$build" --jobs "$(nproc)"
# Each reader's fuzz target for 5 s (tools/fuzz.sh TARGET --seconds 5; IMPETUS_FUZZ=0 skips it). It needs a
# clang build of its own (build-fuzz/), kept cheap: only the code the readers run is instrumented, at -O1,
# the solvers linked at -O0 (tools/fuzz/CMakeLists.txt). Inputs that once failed are replayed by test_sim
# (FuzzRegressions, tests/fuzz/TARGET/) in every run, fuzzed or not.
if [[ "${IMPETUS_FUZZ:-1}" != 0 ]]; then
  for target in scene urdf stl obj dae glb; do
    "$root/tools/fuzz.sh" "$target" --seconds 5
  done
fi
# The regression suite against its goldens (regress/), and Slurm's hand-off where Slurm is installed.
"$root/tools/regress.sh"
if [ "$(id -u)" = 0 ] && command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null; then
  "$root/tools/slurm-local.sh"
fi
