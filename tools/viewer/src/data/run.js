// A run folder in memory: the recorded frames of trajectory.csv, the contacts of contacts.csv
// grouped by frame, the per-step statistics of stats.csv, summary.json and geometry.json.
//
// Sizes: F recorded frames, B bodies, C contacts over all frames.
//   times        (F)        s
//   poses        (F·B·7)    p_WB (m), q_WB (w, x, y, z): frame f, body b at (f·B + b)·7
//   twists       (F·B·6)    v_WB (m/s), ω_WB (rad/s), world frame
//   energy       kinetic, potential (F) J
//   contacts     frameStart (F + 1): contacts of frame f are [frameStart[f], frameStart[f+1]);
//                a, b (C) body indices (−1 ground, −2 an id not in trajectory.csv);
//                p, n (C·3); gap φ (C) m; impulse (C·3) p_N, p_t1, p_t2 in N·s
//   stats        t and one Float64Array per column of stats.csv (F)
//   control      from control.csv (written only when the scene declares controllers), or null:
//                t (R), joints [{name, qDes (R) rad or m, tau (R) N·m or N}], R its rows (the
//                recorded steps, trajectory.csv's without its t = 0 row); status (text) is not plotted

import { GrowableArray, LineSplitter, NumericTableReader, parseNumber, splitFields } from './csv.js';
import { readJson, streamText } from './source.js';

const POSE_SUFFIXES = ['px', 'py', 'pz', 'qw', 'qx', 'qy', 'qz', 'vx', 'vy', 'vz', 'wx', 'wy', 'wz'];
const CONTACT_COLUMNS = ['t', 'a', 'b', 'px', 'py', 'pz', 'nx', 'ny', 'nz', 'gap',
  'impulse_n', 'impulse_t1', 'impulse_t2'];
export const GROUND = -1;
export const UNKNOWN_BODY = -2;

/// Column layout of trajectory.csv: which columns are bodies, joints, energies.
export function parseTrajectoryHeader(columns) {
  const layout = { time: columns.indexOf('t'), bodies: [], joints: [], kinetic: -1, potential: -1,
    unknown: [] };
  if (layout.time < 0) throw new Error('trajectory.csv: no column "t" in the header');
  for (let c = 0; c < columns.length; ++c) {
    const name = columns[c];
    if (c === layout.time) continue;
    if (name === 'kinetic_energy') { layout.kinetic = c; continue; }
    if (name === 'potential_energy') { layout.potential = c; continue; }
    if (name.endsWith('.px')) {
      const id = name.slice(0, -3);
      const block = POSE_SUFFIXES.every((s, k) => columns[c + k] === `${id}.${s}`);
      if (block) { layout.bodies.push({ id, column: c }); c += POSE_SUFFIXES.length - 1; continue; }
    }
    if (name.endsWith('.q') && columns[c + 1] === `${name}d`) {
      layout.joints.push({ name: name.slice(0, -2), column: c });
      ++c;
      continue;
    }
    layout.unknown.push(name);
  }
  return layout;
}

function readTrajectory(run) {
  let layout = null;
  let B = 0;
  const times = new GrowableArray(Float64Array);
  const poses = new GrowableArray(Float64Array, 1 << 16);
  const twists = new GrowableArray(Float32Array, 1 << 16);
  const kinetic = new GrowableArray(Float64Array);
  const potential = new GrowableArray(Float64Array);
  let joints = [];
  const reader = new NumericTableReader({
    onHeader(columns) {
      layout = parseTrajectoryHeader(columns);
      B = layout.bodies.length;
      joints = layout.joints.map((j) => ({ name: j.name, column: j.column,
        q: new GrowableArray(Float64Array), qd: new GrowableArray(Float64Array) }));
      if (layout.unknown.length) {
        run.warnings.push(`trajectory.csv: ${layout.unknown.length} column(s) not understood, ` +
          `e.g. "${layout.unknown[0]}"`);
      }
    },
    onRow(values) {
      times.push(values[layout.time]);
      poses.reserve(poses.length + 7 * B);
      twists.reserve(twists.length + 6 * B);
      const P = poses.data, V = twists.data;
      let i = poses.length, j = twists.length;
      for (let b = 0; b < B; ++b) {
        const c = layout.bodies[b].column;
        for (let k = 0; k < 7; ++k) P[i++] = values[c + k];
        for (let k = 7; k < 13; ++k) V[j++] = values[c + k];
      }
      poses.length = i;
      twists.length = j;
      kinetic.push(layout.kinetic >= 0 ? values[layout.kinetic] : NaN);
      potential.push(layout.potential >= 0 ? values[layout.potential] : NaN);
      for (const joint of joints) { joint.q.push(values[joint.column]); joint.qd.push(values[joint.column + 1]); }
    },
  });
  const finish = () => {
    if (!layout) throw new Error('trajectory.csv is empty');
    if (reader.badRows) run.warnings.push(`trajectory.csv: ${reader.badRows} malformed row(s) skipped`);
    run.bodies = layout.bodies.map((b, index) => ({ id: b.id, index }));
    run.bodyIndex = new Map(run.bodies.map((b) => [b.id, b.index]));
    run.times = times.view();
    run.poses = poses.view();
    run.twists = twists.view();
    run.energy = { kinetic: kinetic.view(), potential: potential.view(),
      recorded: layout.kinetic >= 0 && layout.potential >= 0 };
    run.joints = joints.map((j) => ({ name: j.name, q: j.q.view(), qd: j.qd.view() }));
  };
  return { reader, finish };
}

function readStats(run) {
  const columns = [];
  let names = null;
  const reader = new NumericTableReader({
    onHeader(header) {
      names = header;
      for (let k = 0; k < header.length; ++k) columns.push(new GrowableArray(Float64Array));
    },
    onRow(values) { for (let k = 0; k < columns.length; ++k) columns[k].push(values[k]); },
  });
  const finish = () => {
    if (!names) { run.warnings.push('stats.csv is empty: no per-step solver plots'); run.stats = null; return; }
    const table = {};
    names.forEach((name, k) => { table[name] = columns[k].view(); });
    if (!table.t) { run.warnings.push('stats.csv: no column "t"; per-step plots left out'); run.stats = null; return; }
    run.stats = { rows: table.t.length, columns: table };
  };
  return { reader, finish };
}

function readContacts(run) {
  let index = null;
  const t = new GrowableArray(Float64Array);
  const a = new GrowableArray(Int32Array), b = new GrowableArray(Int32Array);
  const p = new GrowableArray(Float32Array), n = new GrowableArray(Float32Array);
  const gap = new GrowableArray(Float64Array);
  const impulse = new GrowableArray(Float32Array);
  const unknown = new Set();
  const body = (id) => {
    if (id === 'ground') return GROUND;
    const i = run.bodyIndex.get(id);
    if (i !== undefined) return i;
    unknown.add(id);
    return UNKNOWN_BODY;
  };
  let bad = 0;
  const splitter = new LineSplitter((line) => {
    if (line.length === 0) return;
    const fields = splitFields(line);
    if (index === null) {
      const names = fields.map((f) => f.trim());
      index = CONTACT_COLUMNS.map((c) => names.indexOf(c));
      const missing = CONTACT_COLUMNS.filter((c, k) => index[k] < 0);
      if (missing.length) throw new Error(`contacts.csv: missing column(s) ${missing.join(', ')}`);
      return;
    }
    if (fields.length < CONTACT_COLUMNS.length) { ++bad; return; }
    t.push(parseNumber(fields[index[0]]));
    a.push(body(fields[index[1]]));
    b.push(body(fields[index[2]]));
    for (let k = 3; k < 6; ++k) p.push(parseNumber(fields[index[k]]));
    for (let k = 6; k < 9; ++k) n.push(parseNumber(fields[index[k]]));
    gap.push(parseNumber(fields[index[9]]));
    for (let k = 10; k < 13; ++k) impulse.push(parseNumber(fields[index[k]]));
  });
  const finish = () => {
    if (bad) run.warnings.push(`contacts.csv: ${bad} malformed row(s) skipped`);
    if (unknown.size) {
      run.warnings.push(`contacts.csv: body id(s) not in trajectory.csv: ${[...unknown].slice(0, 3).join(', ')}`);
    }
    run.contacts = { count: t.length, t: t.view(), a: a.view(), b: b.view(), p: p.view(), n: n.view(),
      gap: gap.view(), impulse: impulse.view(), frameStart: null, maxPerFrame: 0 };
  };
  return { reader: splitter, finish };
}

/// control.csv: t, then per driven joint J "J.q_des", "J.qd_des", "J.tau", then per controller
/// "MODEL.normal_force", "MODEL.saturated", "MODEL.status" (sim/control_recorder.hpp). Only the joints'
/// columns are read.
function readControl(run) {
  let time = -1, joints = [];
  const t = new GrowableArray(Float64Array);
  let bad = 0;
  const splitter = new LineSplitter((line) => {
    if (line.length === 0) return;
    const fields = splitFields(line);
    if (time < 0 && joints.length === 0) {
      const names = fields.map((f) => f.trim());
      time = names.indexOf('t');
      if (time < 0) throw new Error('control.csv: no column "t" in the header');
      names.forEach((name, c) => {
        if (!name.endsWith('.q_des')) return;
        const joint = name.slice(0, -'.q_des'.length);
        const tau = names.indexOf(`${joint}.tau`);
        if (tau >= 0) joints.push({ name: joint, qColumn: c, tauColumn: tau,
          qDes: new GrowableArray(Float64Array), tau: new GrowableArray(Float64Array) });
      });
      return;
    }
    if (fields.length <= Math.max(time, ...joints.map((j) => Math.max(j.qColumn, j.tauColumn)))) { ++bad; return; }
    t.push(parseNumber(fields[time]));
    for (const j of joints) { j.qDes.push(parseNumber(fields[j.qColumn])); j.tau.push(parseNumber(fields[j.tauColumn])); }
  });
  const finish = () => {
    if (bad) run.warnings.push(`control.csv: ${bad} malformed row(s) skipped`);
    run.control = { t: t.view(), joints: joints.map((j) => ({ name: j.name, qDes: j.qDes.view(), tau: j.tau.view() })) };
  };
  return { reader: splitter, finish };
}

/// frameStart (F + 1) from the contacts' times: both files are written at the same recorded
/// steps, so a contact's t equals a frame's t; a small tolerance absorbs the printing of t.
function groupContactsByFrame(run) {
  const F = run.times.length;
  const frameStart = new Int32Array(F + 1);
  if (!run.contacts) {
    run.contacts = { count: 0, t: new Float64Array(0), a: new Int32Array(0), b: new Int32Array(0),
      p: new Float32Array(0), n: new Float32Array(0), gap: new Float64Array(0), impulse: new Float32Array(0) };
  }
  const c = run.contacts;
  c.maxPerFrame = 0;
  if (c.count === 0) { c.frameStart = frameStart; return; }
  let spacing = Infinity;
  for (let f = 1; f < F; ++f) spacing = Math.min(spacing, run.times[f] - run.times[f - 1]);
  const tolerance = Number.isFinite(spacing) ? 0.25 * spacing : 1e-9;   // a quarter of the finest record interval
  const frameOf = new Int32Array(c.count);
  let f = 0, orphans = 0;
  for (let i = 0; i < c.count; ++i) {
    const t = c.t[i];
    while (f + 1 < F && run.times[f + 1] <= t + tolerance) ++f;
    frameOf[i] = Math.abs(run.times[f] - t) <= tolerance ? f : -1;
    if (frameOf[i] < 0) ++orphans;
    if (i > 0 && t < c.t[i - 1]) throw new Error('contacts.csv: rows are not in time order');
  }
  for (let i = 0; i < c.count; ++i) if (frameOf[i] >= 0) ++frameStart[frameOf[i] + 1];
  for (let k = 0; k < F; ++k) frameStart[k + 1] += frameStart[k];
  // Rows of one frame are contiguous and frames ascend, so the counts give the ranges directly
  // unless orphans sit in between; then keep only rows that belong to a frame.
  if (orphans) {
    run.warnings.push(`contacts.csv: ${orphans} row(s) at times not in trajectory.csv left out`);
    const keep = [];
    for (let i = 0; i < c.count; ++i) if (frameOf[i] >= 0) keep.push(i);
    const pick = (arr, width) => {
      const out = new arr.constructor(keep.length * width);
      keep.forEach((i, j) => { for (let k = 0; k < width; ++k) out[j * width + k] = arr[i * width + k]; });
      return out;
    };
    Object.assign(c, { count: keep.length, t: pick(c.t, 1), a: pick(c.a, 1), b: pick(c.b, 1), p: pick(c.p, 3),
      n: pick(c.n, 3), gap: pick(c.gap, 1), impulse: pick(c.impulse, 3) });
  }
  c.frameStart = frameStart;
  let maxPerFrame = 0;
  for (let k = 0; k < F; ++k) maxPerFrame = Math.max(maxPerFrame, frameStart[k + 1] - frameStart[k]);
  c.maxPerFrame = maxPerFrame;
}

/// Loads every file of the run; onProgress(text) reports what is being read.
export async function loadRun(doc, onProgress = () => {}) {
  const run = { warnings: [], summary: null, geometry: null, stats: null, contacts: null, control: null };
  run.summary = await readJson(doc, 'summary.json');
  run.geometry = await readJson(doc, 'geometry.json');
  if (!run.summary) run.warnings.push('summary.json is missing: the run may have been interrupted');
  if (!run.geometry) run.warnings.push('geometry.json is missing: bodies are drawn as markers');

  const trajectory = readTrajectory(run);
  onProgress('trajectory.csv');
  const found = await streamText(doc, 'trajectory.csv', trajectory.reader,
    (x) => onProgress(`trajectory.csv ${Math.round(100 * x)} %`));
  if (!found) throw new Error('trajectory.csv is missing from the run folder');
  trajectory.finish();
  if (run.times.length === 0) throw new Error('trajectory.csv has no rows');

  const contacts = readContacts(run);
  onProgress('contacts.csv');
  if (await streamText(doc, 'contacts.csv', contacts.reader, (x) => onProgress(`contacts.csv ${Math.round(100 * x)} %`))) {
    contacts.finish();
  } else {
    run.warnings.push('contacts.csv is missing: no contacts drawn');
  }
  groupContactsByFrame(run);

  const stats = readStats(run);
  onProgress('stats.csv');
  if (await streamText(doc, 'stats.csv', stats.reader)) stats.finish();
  else run.warnings.push('stats.csv is missing: no per-step solver plots');

  // control.csv exists only for scenes with controllers, which summary.json's "control" block names;
  // asking the server for an absent file would log a 404 in the console.
  if (!run.summary || run.summary.control) {
    const control = readControl(run);
    onProgress('control.csv');
    if (await streamText(doc, 'control.csv', control.reader)) control.finish();
  }

  run.dt = run.summary && Number.isFinite(run.summary.dt) && run.summary.dt > 0 ? run.summary.dt : null;
  return run;
}
