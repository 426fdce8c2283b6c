#!/usr/bin/env bash
# Installs the Debian packages Impetus needs that this machine lacks (apt-get; root or sudo).
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libeigen3-dev libfcl-dev libtinyxml2-dev libgtest-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libqhull-dev libcpp-httplib-dev libassimp-dev
  python3                                   # tools/identity/check.py, the behaviour-identity check
  libtomlplusplus-dev parallel   # batch manifests; GNU parallel runs --emit parallel in the tests
  libmetis-dev                   # nested dissection for the interior point's large factorizations
  clang libclang-rt-dev          # libFuzzer and the sanitizers of tools/fuzz.sh
)
# Slurm (munge, slurmctld, slurmd) for tools/slurm-local.sh, the end-to-end test of `--emit slurm`;
# IMPETUS_NO_SLURM=1 skips them.
[ "${IMPETUS_NO_SLURM:-0}" = 1 ] || packages+=(munge slurmctld slurmd slurm-client)
# The viewer (tools/viewer): Node.js and npm build it (any Node.js already on the machine will do),
# Debian's Chromium runs its browser test. IMPETUS_NO_VIEWER=1 skips them.
if [ "${IMPETUS_NO_VIEWER:-0}" != 1 ]; then
  command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
  packages+=(chromium)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
