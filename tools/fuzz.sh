#!/usr/bin/env bash
# Fuzzes one reader with libFuzzer:  tools/fuzz.sh TARGET [--runs N | --seconds S] [-- LIBFUZZER_OPTIONS…]
#   TARGET: scene, urdf, stl, obj, dae, glb, or all (each in turn).
# Builds the target with clang, AddressSanitizer and UBSan in build-fuzz/ ($IMPETUS_FUZZ_BUILD_DIR), seeds
# its corpus from scenes/, models/ and ../shared/urdf-corpus (when present), and runs it. Inputs that
# grow coverage are kept in build-fuzz/fuzz/corpus/TARGET. A failing input (crash, leak, timeout over
# 10 s, more than 2 GB of memory, any exception but a refusal) is written to build-fuzz/fuzz/TARGET-*
# and the script exits non-zero: add it to tests/fuzz/TARGET/ as a regression test. Leaks inside
# assimp on inputs it refuses are suppressed (tools/fuzz/lsan.supp says why).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${IMPETUS_FUZZ_BUILD_DIR:-$root/build-fuzz}
targets=(scene urdf stl obj dae glb)

[ $# -ge 1 ] || { sed -n '2,3p' "$0" | sed 's/^# //'; exit 2; }
target=$1; shift
options=("$@")
limit=(-runs=100000)
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) limit=(-runs="$2"); shift 2 ;;
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ "$target" = all ]; then
  for t in "${targets[@]}"; do "$0" "$t" "${options[@]}" || exit 1; done
  exit 0
fi
case " ${targets[*]} " in *" $target "*) ;; *) echo "fuzz.sh: unknown target '$target' (${targets[*]})" >&2; exit 2 ;; esac

command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (tools/install-deps.sh installs it)" >&2; exit 2; }
if [ ! -f "$build/CMakeCache.txt" ]; then
  CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPETUS_FUZZ=ON \
    -DIMPETUS_NATIVE=OFF >/dev/null
fi
cmake --build "$build" --target "fuzz_$target" >/dev/null

# Seeds: the files of the format this target reads.
seeds=$build/fuzz/seeds/$target
if [ ! -d "$seeds" ]; then
  mkdir -p "$seeds"
  case $target in
    scene) pattern='*.xml' ;;
    urdf) pattern='*.urdf' ;;
    *) pattern="*.$target" ;;
  esac
  dirs=("$root/scenes" "$root/models" "$root/tests/fuzz/$target")
  [ -d "$root/../shared/urdf-corpus" ] && dirs+=("$root/../shared/urdf-corpus")
  # Small files only (libFuzzer's inputs stay under -max_len); name by content so copies collapse.
  find "${dirs[@]}" -type f -iname "$pattern" -size -256k 2>/dev/null | while read -r f; do
    cp "$f" "$seeds/$(sha1sum "$f" | cut -c1-16)"
  done
fi
corpus=$build/fuzz/corpus/$target
mkdir -p "$corpus"
cd "$build/fuzz"
export LSAN_OPTIONS="suppressions=$root/tools/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
exec "./fuzz_$target" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=262144 \
  -artifact_prefix="$build/fuzz/$target-" -print_final_stats=1 "${extra[@]}" "$corpus" "$seeds"
