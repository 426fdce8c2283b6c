#!/usr/bin/env bash
# Slurm's hand-off, end to end on this machine: starts a one-node Slurm (Debian's munge, slurmctld and
# slurmd, configured in a temporary folder, no cgroups, on ports of its own), submits the
# `impetus batch --emit slurm` array of a small manifest, waits for it, compares the results with a
# local `impetus batch --jobs 2`, and stops every daemon it started. Exit 0 when Slurm's runs are
# the local runs (compare clean, trajectories identical to the bit).
#   tools/slurm-local.sh            (needs root for slurmd; IMPETUS_BUILD_DIR as tools/build.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${IMPETUS_BUILD_DIR:-$root/build}
impetus=$build/impetus
for program in munged mungekey slurmctld slurmd sbatch sinfo; do
  command -v "$program" >/dev/null || { echo "slurm-local: $program is not installed (apt-get install munge slurmctld slurmd slurm-client)" >&2; exit 1; }
done

tmp=$(mktemp -d /tmp/impetus-slurm.XXXXXX)
pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap stop EXIT
fail() { echo "slurm-local: $*" >&2; for log in "$tmp"/*.log; do echo "--- $log"; tail -20 "$log"; done >&2; exit 1; }

# munge, with a key and socket of its own.
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
chmod 700 "$tmp/munge"
mungekey --create --keyfile "$tmp/munge/munge.key" 2>/dev/null || dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file "$tmp/munge/munge.key" --socket "$tmp/munge/munge.sock" \
  --pid-file "$tmp/munge/munged.pid" --log-file "$tmp/munged.log" --seed-file "$tmp/munge/seed" >"$tmp/munged.out.log" 2>&1 &
pids+=($!)

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
memory=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
cat > "$tmp/slurm.conf" <<CONF
ClusterName=impetus-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
sleep 1
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/slurmd.out.log" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
  state=$(sinfo -h -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 1
done
[ "$state" = idle ] || fail "the node did not come up (state '$state')"

# A small manifest: four short runs under two models.
cat > "$tmp/m.toml" <<TOML
name = "slurm-local"
scenes = ["$root/scenes/box_slide.xml", "$root/scenes/pendulum.xml"]
models = ["stewart_trinkle", "no_slip"]
duration = 0.2
[limits]
wall_time_s = 120
memory_mb = 1000
[slurm]
max_parallel = 2
TOML
"$impetus" batch "$tmp/m.toml" --out "$tmp/slurm" --emit slurm > "$tmp/array.sbatch"
timeout 300 sbatch --wait --quiet "$tmp/array.sbatch" || fail "the array did not complete"
"$impetus" batch "$tmp/m.toml" --out "$tmp/local" --jobs 2 >/dev/null
runs=$(ls -d "$tmp"/slurm/*/run.json | wc -l)
[ "$runs" -eq 4 ] || fail "Slurm wrote $runs run folders, not 4"
"$impetus" compare "$tmp/local" "$tmp/slurm" || fail "Slurm's runs differ from the local batch"
for run in "$tmp"/local/*/; do
  cmp -s "$run/trajectory.csv" "$tmp/slurm/$(basename "$run")/trajectory.csv" || fail "$(basename "$run"): trajectories differ"
done
echo "slurm-local: the Slurm array's 4 runs are the local batch's, to the bit"
