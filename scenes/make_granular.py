#!/usr/bin/env python3
"""Writes the granular scenes of seed 002 §4.2: spheres of radius 0.04 m dropped into an open box of
static walls on the ground.

    granular.xml        1001 spheres (13 × 11 × 7 lattice, 0.09 m), box 1.2 m × 1.2 m, 5 s   (benchmark)
    granular_small.xml    27 spheres (3 × 3 × 3 lattice, 0.1 m),    box 0.3 m × 0.3 m, 1 s   (tests)

The spheres start at rest on a lattice, each moved in x and y by a deterministic jitter (a linear
congruential generator, so the files are reproducible) that breaks the lattice's symmetry. Run from the scenes folder:
    python3 make_granular.py

    python3 make_granular.py --packed OUT.xml [--count N] [--duration S]
writes instead a pile that starts packed and at rest (not a shipped scene: it is for measuring the contact
solver on a resting pile's problems without simulating the landing first). N spheres (default 1001) in
layers: a square layer of 14 × 14 touching spheres, then a 13 × 13 layer sitting in its hollows (each
sphere on four, its centre r√2 higher), alternating, the last layer partial; the box's walls touch the
square layers. Every pair that touches starts a gap of PACKED_GAP apart, inside the collision margin, so
every contact of the packed pile is reported from the first step.
"""
import argparse
import math

RADIUS = 0.04
DENSITY = 1000.0          # kg/m³: 0.268 kg per sphere
MU = 0.5
WALL_THICKNESS = 0.1


class Lcg:
    """x ← (a x + c) mod 2³¹, as in glibc's rand(): a deterministic, portable jitter."""

    def __init__(self, seed):
        self.x = seed

    def uniform(self):
        self.x = (1103515245 * self.x + 12345) % 2**31
        return self.x / 2**31 * 2 - 1


def scene(name, comment, nx, ny, nz, spacing, jitter, inside_x, inside_y, wall_height, first_z, duration, dt, margin):
    rng = Lcg(2002)
    out = [f"<!-- {comment} -->", f'<scene name="{name}">',
           f'  <physics dt="{dt:g}" duration="{duration:g}" gravity="0 0 -9.81" contact_model="max_dissipation" mu="{MU:g}">',
           f'    <collision margin="{margin:g}"/>',
           "  </physics>", "  <ground/>"]
    t = WALL_THICKNESS
    walls = [("wall_xm", -(inside_x + t) / 2, 0, t, inside_y + 2 * t),
             ("wall_xp", (inside_x + t) / 2, 0, t, inside_y + 2 * t),
             ("wall_ym", 0, -(inside_y + t) / 2, inside_x, t),
             ("wall_yp", 0, (inside_y + t) / 2, inside_x, t)]
    for wname, x, y, sx, sy in walls:
        out.append(f'  <body name="{wname}" static="true">')
        out.append(f'    <origin xyz="{x:g} {y:g} {wall_height / 2:g}" rpy="0 0 0"/>')
        out.append(f'    <collision><geometry><box size="{sx:g} {sy:g} {wall_height:g}"/></geometry></collision>')
        out.append("  </body>")
    k = 0
    for iz in range(nz):
        for iy in range(ny):
            for ix in range(nx):
                x = (ix - (nx - 1) / 2) * spacing + jitter * rng.uniform()
                y = (iy - (ny - 1) / 2) * spacing + jitter * rng.uniform()
                z = first_z + iz * spacing
                out.append(f'  <body name="s{k}" density="{DENSITY:g}">')
                out.append(f'    <origin xyz="{x:.5f} {y:.5f} {z:.5f}" rpy="0 0 0"/>')
                out.append(f'    <collision><geometry><sphere radius="{RADIUS:g}"/></geometry></collision>')
                out.append("  </body>")
                k += 1
    out.append("</scene>")
    with open(f"{name}.xml", "w") as f:
        f.write("\n".join(out) + "\n")
    return k


PACKED_GAP = 1e-4        # m: a tenth of a millimetre between touching spheres, far inside the 1 cm margin


def packed(path, count, duration):
    """The pile of granular.xml already packed in its box (see the module's docstring)."""
    side = 14
    pitch = 2 * RADIUS + PACKED_GAP
    rise = math.sqrt(pitch ** 2 / 2)          # centre height between a hollow layer and the one below it
    inside = side * pitch + PACKED_GAP
    wall_height = 0.5
    t = WALL_THICKNESS
    out = [f"<!-- A pile of {count} spheres packed at rest in layers (make_granular.py --packed): for measuring "
           "the contact solver on a resting pile's problems. -->", '<scene name="granular_packed">',
           f'  <physics dt="0.001" duration="{duration:g}" gravity="0 0 -9.81" contact_model="max_dissipation" '
           f'mu="{MU:g}">', '    <collision margin="0.01"/>', "  </physics>", "  <ground/>"]
    walls = [("wall_xm", -(inside + t) / 2, 0, t, inside + 2 * t), ("wall_xp", (inside + t) / 2, 0, t, inside + 2 * t),
             ("wall_ym", 0, -(inside + t) / 2, inside, t), ("wall_yp", 0, (inside + t) / 2, inside, t)]
    for wname, x, y, sx, sy in walls:
        out.append(f'  <body name="{wname}" static="true">')
        out.append(f'    <origin xyz="{x:.6f} {y:.6f} {wall_height / 2:g}" rpy="0 0 0"/>')
        out.append(f'    <collision><geometry><box size="{sx:.6f} {sy:.6f} {wall_height:g}"/></geometry></collision>')
        out.append("  </body>")
    k, layer = 0, 0
    while k < count:
        n = side - layer % 2
        z = RADIUS + PACKED_GAP / 2 + layer * rise
        for iy in range(n):
            for ix in range(n):
                if k == count:
                    break
                x = (ix - (n - 1) / 2) * pitch
                y = (iy - (n - 1) / 2) * pitch
                out.append(f'  <body name="s{k}" density="{DENSITY:g}">')
                out.append(f'    <origin xyz="{x:.6f} {y:.6f} {z:.6f}" rpy="0 0 0"/>')
                out.append(f'    <collision><geometry><sphere radius="{RADIUS:g}"/></geometry></collision>')
                out.append("  </body>")
                k += 1
        layer += 1
    assert layer * rise < wall_height
    out.append("</scene>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


arguments = argparse.ArgumentParser(description="Writes the granular scenes (see the module's docstring).")
arguments.add_argument("--packed", metavar="OUT.xml", help="write only a packed pile at rest to OUT.xml")
arguments.add_argument("--count", type=int, default=1001, help="spheres of the packed pile (default 1001)")
arguments.add_argument("--duration", type=float, default=1.0, help="duration of the packed pile's scene (s)")
options = arguments.parse_args()
if options.packed:
    packed(options.packed, options.count, options.duration)
    raise SystemExit(0)

n = scene("granular",
          "Seed 002 §4.2 granular test (generated by make_granular.py): 1001 spheres (r = 0.04 m, 1000 kg/m³, "
          "mu = 0.5) dropped from rest, 0.6 m to 1.14 m high (lattice spacing 0.09 m, jitter 4 mm), into an "
          "open box of static walls (1.2 m x 1.2 m inside, 0.5 m high) on the ground, 5 s. Collision margin "
          "0.01 m: a sphere at the fall's 5 m/s moves 5 mm per step and must be seen before it touches.",
          13, 11, 7, 0.09, 0.004, 1.2, 1.2, 0.5, 0.6, 5.0, 0.001, 0.01)
assert n == 1001
scene("granular_small",
      "The granular scene of granular.xml in small (generated by make_granular.py): 27 spheres "
      "(r = 0.04 m, 1000 kg/m³, mu = 0.5) dropped from rest, lattice spacing 0.1 m, jitter 1 cm, into an "
      "open 0.3 m x 0.3 m box, 1 s.",
      3, 3, 3, 0.1, 0.01, 0.3, 0.3, 0.3, 0.15, 1.0, 0.002, 0.01)
