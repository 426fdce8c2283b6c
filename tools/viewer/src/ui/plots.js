// Time plots under the 3-D view, all on one time axis, with a cursor at the replay time.
// Each plot draws its series once into a base canvas (again on resize) and the cursor into an
// overlay canvas, so moving the cursor every frame costs one line, not a redraw of the data.
// Clicking or dragging in a plot seeks the replay to that time.

import { niceStep } from '../math.js';

const MARGIN = { left: 58, right: 10, top: 20, bottom: 18 };
const AXIS_COLOR = '#7b8591';
const GRID_COLOR = '#e3e7ec';
const CURSOR_COLOR = '#d4145a';

function formatTick(x, step) {
  if (Math.abs(x) < 0.5 * step) return '0';
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  if (Math.abs(x) >= 1e5 || (x !== 0 && Math.abs(x) < 1e-3)) return x.toExponential(1);
  return x.toFixed(Math.min(digits, 6));
}

/// One plot. series: [{name, color, x, y, style: 'line' | 'bars' | 'marks'}], all x in seconds.
export class Plot {
  constructor(container, { title, unit, series, timeRange, includeZero = false, onSeek }) {
    this.title = title;
    this.unit = unit;
    this.series = series;
    this.timeRange = timeRange;
    this.includeZero = includeZero;
    this.element = document.createElement('div');
    this.element.className = 'plot';
    this.base = document.createElement('canvas');
    this.overlay = document.createElement('canvas');
    this.overlay.className = 'overlay';
    this.element.append(this.base, this.overlay);
    container.append(this.element);
    this.cursor = null;
    this.computeRange();
    const seek = (event) => {
      const r = this.overlay.getBoundingClientRect();
      const x = event.clientX - r.left;
      const [t0, t1] = this.timeRange;
      const w = r.width - MARGIN.left - MARGIN.right;
      onSeek(t0 + Math.min(1, Math.max(0, (x - MARGIN.left) / w)) * (t1 - t0));
    };
    this.overlay.addEventListener('pointerdown', (event) => {
      this.overlay.setPointerCapture(event.pointerId);
      seek(event);
    });
    this.overlay.addEventListener('pointermove', (event) => {
      if (this.overlay.hasPointerCapture(event.pointerId)) seek(event);
    });
  }

  /// Number of data points per series (what the page reports for tests).
  pointCounts() {
    const out = {};
    for (const s of this.series) out[s.name] = s.y.length;
    return out;
  }

  computeRange() {
    let lo = Infinity, hi = -Infinity;
    for (const s of this.series) {
      for (let i = 0; i < s.y.length; ++i) {
        const y = s.y[i];
        if (Number.isFinite(y)) { if (y < lo) lo = y; if (y > hi) hi = y; }
      }
    }
    if (!Number.isFinite(lo)) { lo = 0; hi = 1; }
    if (this.includeZero) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
    if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { lo -= 0.5; hi += 0.5; }   // flat series
    const pad = 0.06 * (hi - lo);
    this.yRange = [this.includeZero && lo === 0 ? 0 : lo - pad, hi + pad];
  }

  resize() {
    const dpr = window.devicePixelRatio || 1;
    const r = this.element.getBoundingClientRect();
    for (const c of [this.base, this.overlay]) {
      c.width = Math.max(1, Math.round(r.width * dpr));
      c.height = Math.max(1, Math.round(r.height * dpr));
    }
    this.width = r.width;
    this.height = r.height;
    this.dpr = dpr;
    this.draw();
    this.drawCursor();
  }

  x(t) {
    const [t0, t1] = this.timeRange;
    return MARGIN.left + ((t - t0) / (t1 - t0 || 1)) * (this.width - MARGIN.left - MARGIN.right);
  }

  y(v) {
    const [y0, y1] = this.yRange;
    return this.height - MARGIN.bottom - ((v - y0) / (y1 - y0)) * (this.height - MARGIN.top - MARGIN.bottom);
  }

  draw() {
    const g = this.base.getContext('2d');
    g.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    g.clearRect(0, 0, this.width, this.height);
    g.font = '11px system-ui, sans-serif';
    const [y0, y1] = this.yRange;
    const step = niceStep(y1 - y0, Math.max(2, Math.floor((this.height - MARGIN.top - MARGIN.bottom) / 40)));
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    for (let v = Math.ceil(y0 / step) * step; v <= y1; v += step) {
      const y = this.y(v);
      g.strokeStyle = GRID_COLOR;
      g.beginPath(); g.moveTo(MARGIN.left, y); g.lineTo(this.width - MARGIN.right, y); g.stroke();
      g.fillStyle = AXIS_COLOR;
      g.fillText(formatTick(v, step), MARGIN.left - 5, y);
    }
    const [t0, t1] = this.timeRange;
    const tStep = niceStep(t1 - t0, Math.max(2, Math.floor(this.width / 90)));
    g.textAlign = 'center';
    g.textBaseline = 'top';
    for (let t = Math.ceil(t0 / tStep) * tStep; t <= t1 + 1e-12; t += tStep) {
      g.fillStyle = AXIS_COLOR;
      g.fillText(formatTick(t, tStep), this.x(t), this.height - MARGIN.bottom + 3);
    }
    g.strokeStyle = AXIS_COLOR;
    g.strokeRect(MARGIN.left, MARGIN.top, this.width - MARGIN.left - MARGIN.right, this.height - MARGIN.top - MARGIN.bottom);
    g.save();
    g.beginPath();
    g.rect(MARGIN.left, MARGIN.top, this.width - MARGIN.left - MARGIN.right, this.height - MARGIN.top - MARGIN.bottom);
    g.clip();
    for (const s of this.series) this.drawSeries(g, s);
    g.restore();
    // Title and legend on the top line (legend lines that do not fit go over the plot's top).
    g.textAlign = 'left';
    g.textBaseline = 'alphabetic';
    g.fillStyle = '#26303b';
    g.font = '600 12px system-ui, sans-serif';
    const title = this.unit ? `${this.title} (${this.unit})` : this.title;
    g.fillText(title, MARGIN.left, 14);
    let lx = MARGIN.left + g.measureText(title).width + 14;
    let ly = 14;
    g.font = '11px system-ui, sans-serif';
    for (const s of this.series) {
      const width = 24 + g.measureText(s.name).width;
      if (lx + width > this.width - MARGIN.right && lx > MARGIN.left + 6) {
        lx = MARGIN.left + 6;                             // next legend line, inside the plot's top
        ly += 13;
      }
      if (ly > 14) {
        g.fillStyle = 'rgba(255, 255, 255, 0.85)';
        g.fillRect(lx - 2, ly - 10, width, 13);
      }
      g.fillStyle = s.color;
      g.fillRect(lx, ly - 8, 10, 8);
      g.fillStyle = '#26303b';
      g.fillText(s.name, lx + 14, ly);
      lx += width;
    }
  }

  /// A line through every point, reduced to min–max per pixel column when points outnumber pixels.
  drawSeries(g, s) {
    const n = Math.min(s.x.length, s.y.length);
    g.strokeStyle = s.color;
    g.fillStyle = s.color;
    g.lineWidth = 1.3;
    if (s.style === 'bars' || s.style === 'marks') {
      const base = this.y(Math.max(this.yRange[0], 0));
      for (let i = 0; i < n; ++i) {
        if (!(s.y[i] > 0)) continue;                      // only steps where something happened
        const x = this.x(s.x[i]);
        if (s.style === 'bars') g.fillRect(x - 1, this.y(s.y[i]), 2, base - this.y(s.y[i]));
        else { g.beginPath(); g.arc(x, this.y(s.y[i]), 2.5, 0, 2 * Math.PI); g.fill(); }
      }
      return;
    }
    g.beginPath();
    let pen = false;
    let column = -Infinity, lo = 0, hi = 0;
    const flush = () => {
      if (column === -Infinity) return;
      if (!pen) { g.moveTo(column, lo); pen = true; } else g.lineTo(column, lo);
      if (hi !== lo) g.lineTo(column, hi);
    };
    for (let i = 0; i < n; ++i) {
      const v = s.y[i];
      if (!Number.isFinite(v)) { flush(); column = -Infinity; pen = false; continue; }
      const x = Math.round(this.x(s.x[i]) * this.dpr) / this.dpr;
      const y = this.y(v);
      if (x !== column) { flush(); column = x; lo = y; hi = y; }
      else { lo = Math.max(lo, y); hi = Math.min(hi, y); }
    }
    flush();
    g.stroke();
  }

  setCursor(t) {
    this.cursor = t;
    this.drawCursor();
  }

  drawCursor() {
    const g = this.overlay.getContext('2d');
    g.setTransform(this.dpr || 1, 0, 0, this.dpr || 1, 0, 0);
    g.clearRect(0, 0, this.width || 0, this.height || 0);
    if (this.cursor === null || !this.width) return;
    const x = this.x(this.cursor);
    g.strokeStyle = CURSOR_COLOR;
    g.lineWidth = 1.5;
    g.beginPath(); g.moveTo(x, MARGIN.top); g.lineTo(x, this.height - MARGIN.bottom); g.stroke();
  }
}

const JOINT_COLORS = ['#1971c2', '#d9480f', '#2b8a3e', '#5f3dc4', '#c2255c', '#e67700', '#0c8599', '#495057'];

/// Tracking error q_des − q per driven joint: q from trajectory.csv's joint of the same name at the
/// frame of the same t (control.csv records the steps, trajectory.csv also the initial state); joints
/// without a trajectory column are left out, rows without a frame are NaN (a gap).
function trackingSeries(run) {
  const c = run.control, times = run.times;
  let spacing = Infinity;
  for (let f = 1; f < times.length; ++f) spacing = Math.min(spacing, times[f] - times[f - 1]);
  const tolerance = Number.isFinite(spacing) ? 0.25 * spacing : 1e-9;   // as contacts.csv's frames
  const frame = new Int32Array(c.t.length);
  for (let i = 0, f = 0; i < c.t.length; ++i) {
    while (f + 1 < times.length && times[f + 1] <= c.t[i] + tolerance) ++f;
    frame[i] = Math.abs(times[f] - c.t[i]) <= tolerance ? f : -1;
  }
  const series = [];
  c.joints.forEach((j, k) => {
    const recorded = run.joints.find((r) => r.name === j.name);
    if (!recorded) return;
    const e = new Float64Array(c.t.length);
    for (let i = 0; i < e.length; ++i) e[i] = frame[i] >= 0 ? j.qDes[i] - recorded.q[frame[i]] : NaN;
    series.push({ name: j.name, color: JOINT_COLORS[k % JOINT_COLORS.length], x: c.t, y: e });
  });
  return series;
}

/// The plots of a run: energy, contacts per step, solver iterations and fallbacks, penetration; with
/// control.csv, the driven joints' τ and tracking error.
export function createPlots(container, run, onSeek) {
  const times = run.times;
  const timeRange = [times[0], times[times.length - 1] > times[0] ? times[times.length - 1] : times[0] + 1];
  const plots = {};
  const common = { timeRange, onSeek };
  const kinetic = run.energy.kinetic, potential = run.energy.potential;
  const total = new Float64Array(kinetic.length);
  for (let i = 0; i < total.length; ++i) total[i] = kinetic[i] + potential[i];
  plots.energy = new Plot(container, { ...common, title: 'Energy', unit: 'J', series: [
    { name: 'kinetic', color: '#d9480f', x: times, y: kinetic },
    { name: 'potential', color: '#1971c2', x: times, y: potential },
    { name: 'total', color: '#343a40', x: times, y: total },
  ] });
  const stats = run.stats;
  const column = (name) => (stats && stats.columns[name]) || null;
  if (stats && column('contacts')) {
    plots.contacts = new Plot(container, { ...common, title: 'Contacts per step', includeZero: true, series: [
      { name: 'contacts', color: '#2b8a3e', x: stats.columns.t, y: column('contacts') },
    ] });
  }
  if (stats && column('solver_iterations')) {
    const series = [{ name: 'iterations', color: '#5f3dc4', x: stats.columns.t, y: column('solver_iterations') }];
    if (column('solver_fallbacks')) series.push({ name: 'fallbacks', color: '#e8590c', x: stats.columns.t, y: column('solver_fallbacks'), style: 'bars' });
    if (column('solver_failures')) series.push({ name: 'failures', color: '#c92a2a', x: stats.columns.t, y: column('solver_failures'), style: 'marks' });
    plots.solver = new Plot(container, { ...common, title: 'Solver per step', includeZero: true, series });
  }
  if (stats && column('max_penetration')) {
    const mm = Float64Array.from(column('max_penetration'), (x) => 1000 * x);
    plots.penetration = new Plot(container, { ...common, title: 'Max penetration', unit: 'mm', includeZero: true, series: [
      { name: 'penetration', color: '#c2255c', x: stats.columns.t, y: mm },
    ] });
  }
  if (run.control && run.control.joints.length) {
    const c = run.control;
    plots.torque = new Plot(container, { ...common, title: 'Joint torque τ', unit: 'N·m | N', includeZero: true,
      series: c.joints.map((j, k) => ({ name: j.name, color: JOINT_COLORS[k % JOINT_COLORS.length], x: c.t, y: j.tau })) });
    const tracking = trackingSeries(run);
    if (tracking.length) {
      plots.tracking = new Plot(container, { ...common, title: 'Tracking error q_des − q', unit: 'rad | m',
        includeZero: true, series: tracking });
    }
  }
  return plots;
}
