#!/usr/bin/env python3
"""The table of issue 12 for one scene: max penetration, the most kinetic energy the contact stage added
in one step, solver fallbacks and failures, contacts per step and stepping time, under every contact model.

    python3 tools/bench/fast_drop_table.py [--impetus build/impetus] [--scene scenes/fast_drop.xml]
                                           [--models stewart_trinkle,no_slip,...] [--out /tmp/fast_drop]
"""
import argparse
import json
import os
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--impetus", default="build/impetus")
parser.add_argument("--scene", default="scenes/fast_drop.xml")
parser.add_argument("--models", default="stewart_trinkle,no_slip,viscous,max_dissipation,ecp")
parser.add_argument("--out", default="/tmp/fast_drop_table")
args = parser.parse_args()

print("| model | status | max penetration (mm) | contact max KE gain (J) | fallbacks | failures | contacts/step (mean, max) | wall (s) |")
print("|---|---|---|---|---|---|---|---|")
for model in args.models.split(","):
    out = os.path.join(args.out, model)
    run = subprocess.run([args.impetus, "run", args.scene, "--model", model, "--out", out],
                         capture_output=True, text=True)
    try:
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
    except (OSError, ValueError):
        print(f"| {model} | no summary (exit {run.returncode}) | | | | | | |")
        continue
    print(f"| {model} | {s['status']} | {1e3 * s['max_penetration']:.2f} | {s['energy']['contact_max_gain']:.3g} | "
          f"{s['solver']['fallbacks']} | {s['solver']['failures']} | "
          f"{s['contacts']['mean_per_step']:.1f}, {s['contacts']['max_per_step']} | {s['wall_time_s']:.2f} |", flush=True)
