#!/usr/bin/env python3
"""Behaviour-identity check: every shipped scene under every contact model, bit for bit.

Runs `impetus run` for each scene of scenes/ (granular.xml excepted: 53 min of one core) under each model
`impetus models` lists (but the cases of SKIPPED_CASES), for at most kMaxSteps steps (STEP_CAPS on the dearest
scenes), recording every step, and compares against the stored
baseline of this build's fingerprint (tools/identity/baseline-MARCH.json, one per kind of machine):
  - trajectory.csv and contacts.csv: SHA-256 of the whole file;
  - summary.json: every physics field, exactly (wall_time_s and timing are clock readings, not physics;
    fields the baseline lacks are new and reported, not compared);
  - the exit status of the run.

Floating-point results depend on the instruction set the build targets (FMA contraction changes the last
bits), on the compiler and on the libraries (libm dispatches by CPU), so each baseline is stamped with a
build fingerprint, and a build is compared with the baseline of its own fingerprint; where none matches the
check is skipped (exit 0) with the reason.

  tools/identity/check.py            compare against this fingerprint's baseline (exit 1 on any difference)
  tools/identity/check.py --write    record this fingerprint's baseline from this build (commit it with the
                                     change of behaviour that made it necessary, saying why). The cases that
                                     changed against this fingerprint's previous baseline are dropped from the
                                     other fingerprints' baselines (there they are "new, not compared" until
                                     a build of that kind records them): one machine cannot record another's
                                     bits, and a stale case would fail there.
Options: --build DIR (default $IMPETUS_BUILD_DIR or build/), --jobs N (default 1), --baseline FILE,
--only SUBSTRING (cases whose "scene:model" name contains it), --times (seconds per case).
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASELINE_DIR = ROOT / "tools" / "identity"
SKIPPED_SCENES = {"granular.xml"}  # 1001 spheres: minutes per hundred steps, and granular_small covers it
# Cases whose cost alone would exceed the check's budget: the ECP model solves every point contact of an
# island in one dense semismooth Newton system, seconds per step on these piles; its own scenes and the
# single-body ones cover it.
SKIPPED_CASES = {"stack10:ecp", "granular_small:ecp"}
# Steps per case: enough for every scene to make and hold its contacts (the spheres of spheres_drop land
# after 0.35 s, the double pendulum after 0.45 s, at dt = 1 ms), fewer on the scenes whose steps are
# dear, so that all cases together take about two minutes of one core.
kMaxSteps = 600
STEP_CAPS = {"granular_small": 200, "stack10": 300, "grasp_no_slip": 200, "spheres_rest1000": 20}
NON_PHYSICS_SUMMARY_FIELDS = {"wall_time_s", "timing"}


def read_cache(build):
    cache = {}
    path = build / "CMakeCache.txt"
    if not path.exists():
        sys.exit(f"{path}: no CMake cache; build first (tools/build.sh)")
    for line in path.read_text().splitlines():
        m = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line)
        if m:
            cache[m.group(1)] = m.group(2)
    return cache


def first_line(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()[0].strip()
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "unknown"


def resolved_march(compiler, flags):
    """The -march the compiler resolves the build's flags to (e.g. native → znver3)."""
    try:
        out = subprocess.run([compiler, *flags, "-Q", "--help=target"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    m = re.search(r"^\s*-march=\s*(\S+)", out, re.M)
    return m.group(1) if m else "unknown"


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def library_versions():
    out = {}
    for pkg in ("libeigen3-dev", "libfcl-dev", "libccd-dev", "libc6"):
        out[pkg] = first_line(["dpkg-query", "-W", "-f=${Version}\n", pkg])
    return out


def fingerprint(build):
    cache = read_cache(build)
    compiler = cache.get("CMAKE_CXX_COMPILER", "c++")
    native = cache.get("IMPETUS_NATIVE", "ON").upper() in ("ON", "TRUE", "1", "YES")
    has_native = cache.get("IMPETUS_HAS_MARCH_NATIVE", "") in ("1", "ON", "TRUE")
    flags = ["-march=native", "-mno-avx512f"] if native and has_native else []
    return {
        "compiler": first_line([compiler, "--version"]),
        "build_type": cache.get("CMAKE_BUILD_TYPE", ""),
        "IMPETUS_NATIVE": "ON" if native else "OFF",
        "march": resolved_march(compiler, flags),
        "cpu": cpu_model(),
        "libraries": library_versions(),
    }


def models(impetus):
    out = subprocess.run([impetus, "models"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.strip()]


def scene_dt(scene):
    m = re.search(r"<physics\b[^>]*\bdt=\"([^\"]+)\"", scene.read_text())
    return float(m.group(1)) if m else None


def scene_duration(scene):
    m = re.search(r"<physics\b[^>]*\bduration=\"([^\"]+)\"", scene.read_text())
    return float(m.group(1)) if m else None


def cases(impetus, only):
    scenes = sorted(p for p in (ROOT / "scenes").glob("*.xml") if p.name not in SKIPPED_SCENES)
    out = []
    for scene in scenes:
        dt, duration = scene_dt(scene), scene_duration(scene)
        if dt is None or duration is None:
            sys.exit(f"{scene}: no <physics dt duration>; the identity check needs both")
        # The duration as the product the run loop will count steps from: n·dt exactly as written.
        steps = min(STEP_CAPS.get(scene.stem, kMaxSteps), round(duration / dt))
        for model in models(impetus):
            name = f"{scene.stem}:{model}"
            if name in SKIPPED_CASES or (only and only not in name):
                continue
            out.append((name, scene, model, repr(steps * dt)))
    return out


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


def flatten(value, prefix=""):
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else k))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(flatten(v, f"{prefix}[{i}]"))
        return out
    return {prefix: value}


def run_case(impetus, case, workdir, show_times):
    name, scene, model, duration = case
    out = Path(workdir) / name.replace(":", "__")
    start = time.monotonic()
    proc = subprocess.run([impetus, "run", str(scene), "--model", model, "--duration", duration,
                           "--record-dt", "0", "--out", str(out)], capture_output=True, text=True)
    summary = {}
    if (out / "summary.json").exists():
        data = json.loads((out / "summary.json").read_text())
        summary = flatten({k: v for k, v in data.items() if k not in NON_PHYSICS_SUMMARY_FIELDS})
    result = {
        "exit": proc.returncode,
        "trajectory.csv": sha256(out / "trajectory.csv"),
        "contacts.csv": sha256(out / "contacts.csv"),
        "summary": summary,
    }
    shutil.rmtree(out, ignore_errors=True)
    if show_times:
        print(f"{time.monotonic() - start:8.2f} s  {name}", flush=True)
    return name, result


def run_all(impetus, case_list, jobs, show_times):
    with tempfile.TemporaryDirectory(prefix="impetus-identity-") as workdir:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            results = dict(pool.map(lambda c: run_case(impetus, c, workdir, show_times), case_list))
    return {name: results[name] for name, *_ in case_list}


def compare(baseline, current):
    """The differences of `current` from `baseline`, one line each."""
    diffs = []
    for name, base in baseline.items():
        if name not in current:
            continue
        now = current[name]
        for key in ("exit", "trajectory.csv", "contacts.csv"):
            if base[key] != now[key]:
                diffs.append(f"{name}: {key} differs" + (f" ({base[key]} → {now[key]})" if key == "exit" else ""))
        for field, value in base["summary"].items():
            if field not in now["summary"]:
                diffs.append(f"{name}: summary.json {field} is gone")
            elif now["summary"][field] != value:
                diffs.append(f"{name}: summary.json {field}: {value!r} → {now['summary'][field]!r}")
    return diffs


def write_baseline(path, fingerprint_, cases_):
    # One line per case, so that a regenerated baseline diffs case by case.
    lines = [f"  {json.dumps(name)}: {json.dumps(cases_[name], sort_keys=True)}" for name in sorted(cases_)]
    path.write_text('{\n "fingerprint": ' + json.dumps(fingerprint_, sort_keys=True) + ',\n "cases": {\n' +
                    ",\n".join(lines) + "\n }\n}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="record the baseline from this build")
    parser.add_argument("--build", type=Path, default=Path(os.environ.get("IMPETUS_BUILD_DIR", ROOT / "build")))
    parser.add_argument("--baseline", type=Path, default=None,
                        help="one baseline file (default: the one of tools/identity/ with this fingerprint)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="only cases whose scene:model contains this")
    parser.add_argument("--times", action="store_true", help="print the seconds each case took")
    args = parser.parse_args()

    impetus = args.build / "impetus"
    if not impetus.exists():
        sys.exit(f"{impetus}: not built (tools/build.sh)")
    here = fingerprint(args.build)

    others = []   # the other fingerprints' baselines, when the default directory is used
    if args.baseline is None:
        stored_files = sorted(BASELINE_DIR.glob("baseline-*.json"))
        mine = [f for f in stored_files if json.loads(f.read_text())["fingerprint"] == here]
        others = [f for f in stored_files if f not in mine]
        args.baseline = mine[0] if mine else BASELINE_DIR / f"baseline-{here['march']}.json"
        if not mine and args.baseline.exists():
            args.baseline = BASELINE_DIR / f"baseline-{here['march']}-{len(stored_files)}.json"

    if not args.write:
        if not args.baseline.exists():
            print("identity check skipped: no baseline has this build's fingerprint, so bit-identical results are "
                  "not expected (record one on this machine from an unchanged main with --write to check here)")
            for f in others:
                theirs = json.loads(f.read_text())["fingerprint"]
                print(f"  {f.name}:")
                for key in sorted(set(here) | set(theirs)):
                    if here.get(key) != theirs.get(key):
                        print(f"    {key}: baseline {theirs.get(key)!r}, this build {here.get(key)!r}")
            return 0
        stored = json.loads(args.baseline.read_text())
        if stored["fingerprint"] != here:
            print("identity check skipped: this build's fingerprint differs from the baseline's, so bit-identical "
                  "results are not expected (record a baseline on this machine from an unchanged main with "
                  "--write to check here)")
            for key in sorted(set(here) | set(stored["fingerprint"])):
                if here.get(key) != stored["fingerprint"].get(key):
                    print(f"  {key}: baseline {stored['fingerprint'].get(key)!r}, this build {here.get(key)!r}")
            return 0

    case_list = cases(str(impetus), args.only)
    current = run_all(str(impetus), case_list, args.jobs, args.times)

    if args.write:
        if args.only:
            sys.exit("--write records every case; drop --only")
        changed = []
        if args.baseline.exists():
            previous = json.loads(args.baseline.read_text())
            if previous["fingerprint"] == here:
                changed = [name for name in sorted(current) if name in previous["cases"]
                           and compare({name: previous["cases"][name]}, {name: current[name]})]
        args.baseline.parent.mkdir(parents=True, exist_ok=True)
        write_baseline(args.baseline, here, current)
        print(f"identity baseline: {len(current)} cases written to {args.baseline}")
        for f in others:
            theirs = json.loads(f.read_text())
            dropped = [name for name in changed if name in theirs["cases"]]
            if dropped:
                for name in dropped:
                    del theirs["cases"][name]
                write_baseline(f, theirs["fingerprint"], theirs["cases"])
                print(f"  dropped from {f.name} (changed here; that kind of build records them again): "
                      + ", ".join(dropped))
        return 0

    baseline = stored["cases"]
    missing = sorted(set(baseline) - set(current)) if not args.only else []
    new = sorted(set(current) - set(baseline))
    diffs = compare(baseline, current)
    for line in diffs:
        print(line)
    for name in missing:
        print(f"{name}: in the baseline but not run (scene or model gone?)")
    for name in new:
        print(f"{name}: new case, not in the baseline (not compared)")
    compared = len(set(baseline) & set(current))
    if diffs or missing:
        print(f"identity check FAILED: {len(diffs)} differences, {len(missing)} missing cases of {compared} compared")
        return 1
    print(f"identity check passed: {compared} cases (scene × model) bit-identical to the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
