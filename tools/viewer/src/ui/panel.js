// The side panel: summary.json's figures, the stage timing, warnings, and the followed body's
// state at the replay time.

const STAGES = ['kinematics', 'collision', 'dynamics', 'assembly', 'contact', 'integration', 'recording'];
const STAGE_COLORS = ['#4c6ef5', '#15aabf', '#82c91e', '#fab005', '#e8590c', '#be4bdb', '#868e96'];

function el(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

/// A number in engineering-friendly form: 4 significant digits, exponent outside [1e-3, 1e6).
export function fmt(x, digits = 4) {
  if (x === null || x === undefined) return '–';
  if (typeof x !== 'number') return String(x);
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e6 || a < 1e-3) return x.toExponential(digits - 1);
  return Number(x.toPrecision(digits)).toString();
}

function table(rows) {
  const t = el('table');
  for (const [name, value, cls] of rows) {
    t.append(el('tr', cls ? { class: cls } : {}, el('th', {}, name), el('td', {}, value)));
  }
  return t;
}

function section(title, ...content) {
  return el('section', {}, el('h3', {}, title), ...content);
}

// Energy gains below this fraction of the initial energy are round-off of sums over bodies, not a
// model injecting energy: they are not flagged.
const ENERGY_TOLERANCE = 1e-9;

export class Panel {
  /// penetrationTolerance (m): depth below which a penetration is not flagged (round-off).
  constructor(container, run, penetrationTolerance) {
    this.container = container;
    this.run = run;
    const s = run.summary || {};
    const title = el('h2', {}, s.scene || (run.geometry && run.geometry.scene) || 'run');
    container.append(title);
    if (run.summary) {
      const ok = s.status === 'ok';
      container.append(section('Run', table([
        ['status', s.status ?? '–', ok ? 'ok' : 'bad'],
        ['contact model', s.contact_model ?? '–'],
        ['dt', `${fmt(s.dt)} s`],
        ['steps', fmt(s.steps, 8)],
        ['simulated', `${fmt(s.sim_time)} s`],
        ['wall time', `${fmt(s.wall_time_s)} s`],
        ['real-time factor', s.wall_time_s > 0 ? `${fmt(s.sim_time / s.wall_time_s, 3)}×` : '–'],
        ['bodies', String(run.bodies.length)],
        ['recorded frames', String(run.times.length)],
      ])));
      const c = s.contacts || {}, v = s.solver || {}, e = s.energy || {};
      const gain = (x) => x > ENERGY_TOLERANCE * Math.max(Math.abs(e.initial) || 0, Math.abs(e.final) || 0, 1e-12);
      container.append(section('Contacts', table([
        ['max per step', fmt(c.max_per_step)],
        ['mean per step', fmt(c.mean_per_step)],
        ['max penetration', `${fmt(1000 * (s.max_penetration ?? NaN))} mm`, s.max_penetration > penetrationTolerance ? 'warn' : ''],
      ])));
      container.append(section('Solver', table([
        ['calls', fmt(v.calls, 8)],
        ['mean iterations', fmt(v.mean_iterations)],
        ['max iterations', fmt(v.max_iterations)],
        ['fallbacks', fmt(v.fallbacks, 8), v.fallbacks > 0 ? 'warn' : ''],
        ['failures', fmt(v.failures, 8), v.failures > 0 ? 'bad' : ''],
      ])));
      container.append(section('Energy', table([
        ['initial', `${fmt(e.initial)} J`],
        ['final', `${fmt(e.final)} J`],
        ['max gain per step', `${fmt(e.max_gain)} J`, gain(e.max_gain) ? 'warn' : ''],
        ['contact max gain', `${fmt(e.contact_max_gain)} J`, gain(e.contact_max_gain) ? 'bad' : ''],
      ])));
      if (s.timing) container.append(section('Time per stage', this.timing(s.timing)));
    }
    if (run.warnings.length) {
      container.append(section('Warnings', el('ul', { class: 'warnings' }, ...run.warnings.map((w) => el('li', {}, w)))));
    }
    this.frameInfo = el('div');
    container.append(section('At the cursor', this.frameInfo));
  }

  timing(timing) {
    const total = STAGES.reduce((sum, k) => sum + (Number(timing[k]) || 0), 0);
    const bar = el('div', { class: 'timing-bar' });
    const rows = [];
    STAGES.forEach((k, i) => {
      const x = Number(timing[k]) || 0;
      const share = total > 0 ? x / total : 0;
      const part = el('span', { title: `${k}: ${fmt(x)} s` });
      part.style.width = `${100 * share}%`;
      part.style.background = STAGE_COLORS[i];
      bar.append(part);
      const swatch = el('i');
      swatch.style.background = STAGE_COLORS[i];
      const name = el('span', {}, swatch, k);
      rows.push([name, `${fmt(x)} s (${(100 * share).toFixed(1)} %)`]);
    });
    return el('div', {}, bar, table(rows));
  }

  /// frame: index; contacts: ContactLayer.drawn; body: {id, p, q, v, w} of the followed body or null.
  /// minimumGap: the most negative gap of the frame (m); tolerance: depth counted as penetrating.
  update(time, frame, contacts, body, minimumGap, tolerance) {
    const rows = [
      ['time', `${time.toFixed(4)} s`],
      ['frame', `${frame + 1} / ${this.run.times.length}`],
      ['contacts', String(contacts.contacts ?? 0)],
      [`penetrating > ${fmt(1000 * tolerance, 2)} mm`, String(contacts.penetrating ?? 0), contacts.penetrating ? 'bad' : ''],
      ['deepest', Number.isFinite(minimumGap) && minimumGap < 0 ? `${fmt(-1000 * minimumGap)} mm` : '–'],
      ['kinetic energy', `${fmt(this.run.energy.kinetic[frame])} J`],
      ['potential energy', `${fmt(this.run.energy.potential[frame])} J`],
    ];
    if (body) {
      const v3 = (a) => `${fmt(a[0], 3)}, ${fmt(a[1], 3)}, ${fmt(a[2], 3)}`;
      rows.push([`${body.id} p`, `${v3(body.p)} m`]);
      rows.push([`${body.id} q`, `${fmt(body.q[0], 3)}, ${v3(body.q.slice(1))}`]);
      rows.push([`${body.id} v`, `${v3(body.v)} m/s`]);
      rows.push([`${body.id} ω`, `${v3(body.w)} rad/s`]);
    }
    this.frameInfo.replaceChildren(table(rows));
  }
}
