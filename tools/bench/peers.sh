#!/usr/bin/env bash
# Impetus beside ODE and Bullet on the same scenes, one table (issue 16's comparison as one command):
#
#   tools/bench/peers.sh [--quick] [--budget S] [--scenes "stack10 spheres_rest1000 granular"]
#                        [--models "stewart_trinkle no_slip viscous max_dissipation"] [--threads N] [--out DIR]
#
# Scenes (the very files Impetus runs; the peers rebuild them through tools/bench/peers/peer_scene.hpp):
#   stack10            10 unit boxes stacked, 10 s                 drift = the top box's displacement
#   spheres_rest1000   1000 spheres resting apart on the ground, 1 s  drift = the largest displacement
#   granular           1001 spheres poured into a box, the first 0.6 s
# Engines: Bullet (sequential impulse), ODE dWorldQuickStep and dWorldStep, and Impetus under each contact
# model, all on one core at the scene's dt = 1 ms (Impetus with --threads 1 unless --threads N says otherwise:
# the peers step on one thread, so one core is the like-for-like comparison). Time is wall time of stepping
# per simulated second: for Impetus the CLI's own summary.json wall_time_s (stages 1-6, recording left out), for the peers the
# same span around their step calls. Penetration is the deepest contact the collision stage found.
# Each run gets a budget of wall time (--budget, default 120 s); a run over it is reported as such with the
# rate it had reached. --quick runs a fifth of every duration (a smoke test of the script, not a benchmark).
# ODE and Bullet come from Debian (libode-dev, libbullet-dev), installed here when missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${IMPETUS_BUILD_DIR:-$root/build}
scenes="stack10 spheres_rest1000 granular"
models="stewart_trinkle no_slip viscous max_dissipation"
budget=120
threads=1
scale=1
out=$(mktemp -d /tmp/impetus-peers.XXXXXX)
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) scale=0.2 ;;
    --budget) budget=$2; shift ;;
    --scenes) scenes=$2; shift ;;
    --models) models=$2; shift ;;
    --threads) threads=$2; shift ;;
    --out) out=$2; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "peers.sh: unknown argument '$1' (see --help)" >&2; exit 1 ;;
  esac
  shift
done
mkdir -p "$out"

# The peers' libraries (and python3, which reads the JSON below), from Debian when missing.
missing=()
for p in libode-dev libbullet-dev python3 pkg-config; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
"$root/tools/install-deps.sh" >&2
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target impetus peer_ode peer_bullet >&2

duration_of() {  # simulated seconds per scene
  case "$1" in
    stack10) awk "BEGIN { print 10 * $scale }" ;;
    spheres_rest1000) awk "BEGIN { print 1 * $scale }" ;;
    granular) awk "BEGIN { print 0.6 * $scale }" ;;
    *) echo "peers.sh: no duration for scene '$1'" >&2; exit 1 ;;
  esac
}

results=$out/results.jsonl
: > "$results"
for scene in $scenes; do
  file=$root/scenes/$scene.xml
  duration=$(duration_of "$scene")
  for peer in "bullet_si:peer_bullet:" "ode_quick:peer_ode:--solver quick" "ode_exact:peer_ode:--solver exact"; do
    IFS=: read -r name exe flags <<<"$peer"
    echo "$scene: $name ..." >&2
    # shellcheck disable=SC2086
    if ! "$build/bench/$exe" "$file" $flags --duration "$duration" --budget "$budget" >>"$results"; then
      echo "{\"engine\": \"$name\", \"scene\": \"$scene\", \"status\": \"error\"}" >>"$results"
    fi
  done
  for model in $models; do
    echo "$scene: impetus $model ..." >&2
    dir=$out/$scene-$model
    rm -rf "$dir"
    status=0
    # SIGTERM at the budget: a run that stops on it still writes its summary (status "interrupted").
    timeout --signal=TERM --kill-after=30 "$budget" "$build/impetus" run "$file" --model "$model" \
      --duration "$duration" --threads "$threads" --out "$dir" >/dev/null 2>"$dir.err" || status=$?
    python3 - "$file" "$dir" "$model" "$scene" "$status" "$budget" >>"$results" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET
scene_file, run_dir, model, scene, status, budget = sys.argv[1:]
row = {"engine": "impetus " + model, "scene": scene}
summary = os.path.join(run_dir, "summary.json")
if not os.path.exists(summary):
    row["status"] = "over_budget" if status == "124" else "error " + status
    row["note"] = "no summary after %s s" % budget if status == "124" else ""
    print(json.dumps(row)); sys.exit()
s = json.load(open(summary))
initial = {}
top, top_z = None, None
for b in ET.parse(scene_file).getroot().iter("body"):
    if b.get("static") == "true": continue
    p = [float(x) for x in b.find("origin").get("xyz").split()]
    initial[b.get("name")] = p
    if top is None or p[2] > top_z: top, top_z = b.get("name"), p[2]
def drift(name):
    p, q = s["final_state"][name]["p"], initial[name]
    return sum((a - b) ** 2 for a, b in zip(p, q)) ** 0.5
row.update(status="over_budget" if status == "124" or s["status"] == "interrupted" else s["status"],
           steps=s["steps"], sim_time=s["sim_time"], wall_time_s=s["wall_time_s"],
           max_penetration=s["max_penetration"], top_drift=drift(top),
           max_drift=max(drift(n) for n in initial), fallbacks=s["solver"]["fallbacks"],
           failures=s["solver"]["failures"])
print(json.dumps(row))
PY
  done
done

python3 - "$results" "$budget" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
budget = sys.argv[2]
# A stack whose top box moved more than half a box has fallen: its drift is no longer an accuracy figure.
COLLAPSE = 0.5
print("| scene | engine | wall s per simulated s | drift (m) | max penetration (m) | status |")
print("|---|---|---|---|---|---|")
for r in rows:
    scene = r["scene"]
    if "wall_time_s" not in r or not r.get("sim_time"):
        print(f"| {scene} | {r['engine']} | — | — | — | {r['status']} {r.get('note', '')} |"); continue
    rate = r["wall_time_s"] / r["sim_time"]
    status = r["status"]
    if status == "over_budget": status = f"over the {budget} s budget at t = {r['sim_time']:.3g} s"
    if scene == "granular": drift = "—"
    else:
        d = r["top_drift"] if scene == "stack10" else r["max_drift"]
        drift = f"{d:.3g}"
        if scene == "stack10" and d > COLLAPSE: status += ", collapses"
    extra = ""
    if r.get("solver_errors"): extra = f" ({r['solver_errors']} solver errors)"
    if r.get("fallbacks") or r.get("failures"): extra = f" (fallbacks {r.get('fallbacks', 0)}, failures {r.get('failures', 0)})"
    print(f"| {scene} | {r['engine']} | {rate:.3g} | {drift} | {r['max_penetration']:.3g} | {status}{extra} |")
print(f"\ndrift: stack10 the top box's displacement, spheres_rest1000 the largest sphere displacement, at the end.")
PY
echo "runs and raw results: $out" >&2
