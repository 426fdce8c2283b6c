// Writes a run folder in the exact formats of `impetus run` (DESIGN.md, and geometry.json of
// sim/output/geometry_json.hpp) from closed-form motions, so the viewer can be developed, tested
// and benchmarked without the simulator:
//
//   node fabricate_run.mjs box_stack DIR [--frames N]
//       three boxes of different sizes stacked on the ground; the top one slides with Coulomb
//       friction (x = v0·t − ½μg·t² until it stops) and spins down; 4 contacts per interface.
//   node fabricate_run.mjs granular DIR [--bodies N] [--frames N]
//       N spheres dropped from a grid onto the ground, bouncing with restitution e.
//
// The motions are physical enough to check the viewer against (energies are those of the
// motions), but they are not simulations: nothing here tests the simulator.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const G = 9.81;
const RECORD_DT = 0.01;
const DT = 0.001;

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const POSE = ['px', 'py', 'pz', 'qw', 'qx', 'qy', 'qz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz'];

function writeRun(dir, { scene, bodies, frames, contactsAt, extraSummary }) {
  mkdirSync(dir, { recursive: true });
  const header = ['t', ...bodies.flatMap((b) => POSE.map((s) => `${b.id}.${s}`)), 'kinetic_energy', 'potential_energy'];
  const trajectory = [header.join(',')];
  const stats = ['t,contacts,solver_calls,solver_iterations,solver_fallbacks,solver_failures,kinetic_energy,potential_energy,max_penetration'];
  const contacts = ['t,a,b,px,py,pz,nx,ny,nz,gap,impulse_n,impulse_t1,impulse_t2'];
  let maxPerStep = 0, sumContacts = 0, maxPenetration = 0, maxGain = 0, previousE = null;
  let energy0 = 0, energyN = 0;
  for (let f = 0; f < frames; ++f) {
    const t = Number((f * RECORD_DT).toFixed(6));
    let KE = 0, PE = 0;
    const row = [t];
    for (const b of bodies) {
      const s = b.state(t);
      row.push(...s.p, ...s.q, ...s.v, ...s.w);
      KE += 0.5 * b.mass * (s.v[0] ** 2 + s.v[1] ** 2 + s.v[2] ** 2) + 0.5 * b.inertia * (s.w[0] ** 2 + s.w[1] ** 2 + s.w[2] ** 2);
      PE += b.mass * G * s.p[2];
    }
    row.push(KE, PE);
    trajectory.push(row.join(','));
    const list = contactsAt(t);
    let penetration = 0;
    for (const c of list) {
      contacts.push([t, c.a, c.b, ...c.p, ...c.n, c.gap, c.impulse[0], c.impulse[1], c.impulse[2]].join(','));
      penetration = Math.max(penetration, -c.gap);
    }
    const iterations = list.length ? 3 + (f % 5) : 0;
    const fallback = f % 37 === 36 ? 1 : 0;
    stats.push([t, list.length, 1, iterations, fallback, 0, KE, PE, penetration].join(','));
    maxPerStep = Math.max(maxPerStep, list.length);
    sumContacts += list.length;
    maxPenetration = Math.max(maxPenetration, penetration);
    if (previousE !== null) maxGain = Math.max(maxGain, KE + PE - previousE);
    previousE = KE + PE;
    if (f === 0) energy0 = KE + PE;
    energyN = KE + PE;
  }
  const tEnd = Number(((frames - 1) * RECORD_DT).toFixed(6));
  const finalState = {};
  for (const b of bodies) {
    const s = b.state(tEnd);
    finalState[b.id] = { p: s.p, q: s.q, v: s.v, w: s.w };
  }
  const steps = Math.round(tEnd / DT);
  const summary = {
    scene, contact_model: 'stewart_trinkle', dt: DT, steps, sim_time: tEnd, wall_time_s: 0.0123 * frames,
    timing: { kinematics: 0.01, collision: 0.05, dynamics: 0.02, assembly: 0.03, contact: 0.12, integration: 0.005, recording: 0.01 },
    status: 'ok', max_penetration: maxPenetration,
    contacts: { max_per_step: maxPerStep, mean_per_step: sumContacts / frames },
    solver: { calls: steps, failures: 0, fallbacks: Math.floor(frames / 37), mean_iterations: 4.1, max_iterations: 7 },
    energy: { initial: energy0, final: energyN, max_gain: maxGain, contact_max_gain: -1e-9 },
    final_state: finalState,
    ...extraSummary,
  };
  const geometry = {
    scene,
    ground: { z: 0, normal: [0, 0, 1] },
    bodies: bodies.map((b) => ({ id: b.id, static: !!b.static, shapes: b.shapes })),
  };
  writeFileSync(path.join(dir, 'trajectory.csv'), `${trajectory.join('\n')}\n`);
  writeFileSync(path.join(dir, 'contacts.csv'), `${contacts.join('\n')}\n`);
  writeFileSync(path.join(dir, 'stats.csv'), `${stats.join('\n')}\n`);
  writeFileSync(path.join(dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(path.join(dir, 'geometry.json'), `${JSON.stringify(geometry)}\n`);
}

const identity = [1, 0, 0, 0];
const pose0 = { p: [0, 0, 0], q: identity };

function boxStack(dir, frames) {
  const mu = 0.5, v0 = 0.4, w0 = 2.0, spinDecay = 4.0;     // m/s, rad/s, rad/s²
  const sizes = [0.3, 0.2, 0.12];
  const masses = [2.0, 1.0, 0.5];
  const bodies = [];
  let z = 0;
  sizes.forEach((s, i) => {
    const zc = z + s / 2;
    z += s;
    const top = i === sizes.length - 1;
    bodies.push({
      id: `box${i}`, mass: masses[i], inertia: masses[i] * s * s / 6,
      shapes: [{ kind: 'box', size: [s, s, s], pose: pose0 }],
      state(t) {
        if (!top) return { p: [0, 0, zc], q: identity, v: [0, 0, 0], w: [0, 0, 0] };
        const tStop = v0 / (mu * G);
        const ts = Math.min(t, tStop);
        const x = v0 * ts - 0.5 * mu * G * ts * ts;
        const v = t < tStop ? v0 - mu * G * t : 0;
        const tSpin = w0 / spinDecay;
        const tw = Math.min(t, tSpin);
        const angle = w0 * tw - 0.5 * spinDecay * tw * tw;
        const w = t < tSpin ? w0 - spinDecay * t : 0;
        return { p: [x, 0, zc], q: [Math.cos(angle / 2), 0, 0, Math.sin(angle / 2)], v: [v, 0, 0], w: [0, 0, w] };
      },
    });
  });
  // A static post next to the stack, so a static body is in the run too.
  bodies.push({ id: 'post', static: true, mass: 0, inertia: 0,
    shapes: [{ kind: 'cylinder', radius: 0.05, length: 0.6, pose: { p: [0, 0, 0], q: identity } }],
    state: () => ({ p: [-0.5, 0.3, 0.3], q: identity, v: [0, 0, 0], w: [0, 0, 0] }) });
  const contactsAt = (t) => {
    const list = [];
    let zc = 0;
    sizes.forEach((s, i) => {
      const above = masses.slice(i).reduce((a, m) => a + m, 0);
      const below = i === 0 ? 'ground' : `box${i - 1}`;
      const top = bodies[i].state(t);
      const sliding = i === sizes.length - 1 && top.v[0] > 0;
      const h = s / 2;
      for (const [dx, dy] of [[-h, -h], [h, -h], [h, h], [-h, h]]) {
        const pN = (above * G * DT) / 4;
        // Friction opposes sliding (+x); for n = +z, t1 = +x (sim/assembly.hpp tangent_basis).
        list.push({ a: `box${i}`, b: below, p: [top.p[0] + dx, dy, zc], n: [0, 0, 1],
          gap: i === 0 ? -2e-4 : 1e-5, impulse: [pN, sliding ? -mu * pN : 0, 0] });
      }
      zc += s;
    });
    return list;
  };
  writeRun(dir, { scene: 'box_stack', bodies, frames, contactsAt });
}

function granular(dir, count, frames) {
  const r = 0.04, e = 0.5, mass = 0.2;
  const side = Math.ceil(Math.sqrt(count / 4));
  const bodies = [];
  for (let i = 0; i < count; ++i) {
    const layer = Math.floor(i / (side * side));
    const gx = i % side, gy = Math.floor(i / side) % side;
    const p0 = [(gx - side / 2) * 2.5 * r, (gy - side / 2) * 2.5 * r, 0.3 + layer * 2.5 * r + (i % 7) * 0.01];
    const vx = 0.05 * Math.sin(i), vy = 0.05 * Math.cos(1.3 * i);
    bodies.push({
      id: `grain${i}`, mass, inertia: 0.4 * mass * r * r, shapes: [{ kind: 'sphere', radius: r, pose: pose0 }],
      // Vertical bounces: height h0 above contact, then parabolas of decaying speed e^k·v_impact.
      state(t) {
        let h = p0[2] - r, vz = 0, tau = t;
        let tFall = Math.sqrt((2 * h) / G);
        let z, v;
        if (tau <= tFall) { z = h - 0.5 * G * tau * tau; v = -G * tau; }
        else {
          tau -= tFall;
          let vUp = e * G * tFall;
          for (;;) {
            const flight = (2 * vUp) / G;
            if (tau <= flight || vUp < 1e-3) { z = vUp < 1e-3 ? 0 : vUp * tau - 0.5 * G * tau * tau; v = vUp < 1e-3 ? 0 : vUp - G * tau; break; }
            tau -= flight;
            vUp *= e;
          }
        }
        vz = v;
        const angle = 3 * t;
        return { p: [p0[0] + vx * t, p0[1] + vy * t, r + z], q: [Math.cos(angle / 2), Math.sin(angle / 2), 0, 0],
          v: [vx, vy, vz], w: [3, 0, 0] };
      },
    });
  }
  const contactsAt = (t) => {
    const list = [];
    for (const b of bodies) {
      const s = b.state(t);
      const gap = s.p[2] - r;
      if (gap < 0.002) list.push({ a: b.id, b: 'ground', p: [s.p[0], s.p[1], gap / 2], n: [0, 0, 1], gap: gap - 1e-5, impulse: [mass * G * DT, 0.0002, -0.0001] });
    }
    return list;
  };
  writeRun(dir, { scene: 'granular', bodies, frames, contactsAt });
}

const [kind, dir] = process.argv.slice(2);
if (kind === 'box_stack') boxStack(dir, option('--frames', 101));
else if (kind === 'granular') granular(dir, option('--bodies', 1000), option('--frames', 201));
else {
  console.error('usage: node fabricate_run.mjs box_stack|granular DIR [--bodies N] [--frames N]');
  process.exit(2);
}
console.log(`wrote ${dir}`);
