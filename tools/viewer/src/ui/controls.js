// The playback bar: play / pause, frame slider (scrub), time readout, speed, follow a body,
// contact layers and arrow scale. Keyboard: space play/pause, ←/→ one frame, Home/End.

const SPEEDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10];
const ARROW_SCALE_STEPS = 8;                          // the arrow-scale slider spans 2^±8

function el(tag, attributes = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

export class Controls {
  /// handlers: {togglePlay, seekFrame(i), setSpeed(x), follow(bodyIndex | −1), setLayer(name, on),
  /// setArrowScale(factor)}
  constructor(container, run, handlers) {
    this.run = run;
    this.play = el('button', { id: 'play', title: 'Play / pause (space)' }, '▶');
    this.play.addEventListener('click', () => handlers.togglePlay());
    const F = run.times.length;
    this.slider = el('input', { id: 'scrub', type: 'range', min: '0', max: String(Math.max(0, F - 1)), step: '1', value: '0' });
    this.slider.addEventListener('input', () => handlers.seekFrame(Number(this.slider.value)));
    this.readout = el('span', { id: 'time', class: 'readout' });
    this.speed = el('select', { id: 'speed', title: 'Replay speed (× real time)' },
      ...SPEEDS.map((s) => el('option', { value: String(s) }, `${s}×`)));
    this.speed.value = '1';
    this.speed.addEventListener('change', () => handlers.setSpeed(Number(this.speed.value)));
    const dynamic = run.bodies.filter((b) => !run.isStatic || !run.isStatic[b.index]);
    this.follow = el('select', { id: 'follow', title: 'Keep a body in view' },
      el('option', { value: '-1' }, 'follow: none'),
      ...dynamic.slice(0, 5000).map((b) => el('option', { value: String(b.index) }, b.id)));
    this.follow.addEventListener('change', () => handlers.follow(Number(this.follow.value)));
    const toggle = (name, label) => {
      const box = el('input', { type: 'checkbox', id: `show-${name}` });
      box.checked = true;
      box.addEventListener('change', () => handlers.setLayer(name, box.checked));
      return el('label', {}, box, label);
    };
    const scale = el('input', { id: 'arrow-scale', type: 'range', min: String(-ARROW_SCALE_STEPS),
      max: String(ARROW_SCALE_STEPS), step: '1', value: '0', title: 'Arrow length scale' });
    scale.addEventListener('input', () => handlers.setArrowScale(Math.pow(2, Number(scale.value))));
    this.scaleLabel = el('span', { class: 'readout', id: 'arrow-scale-label' });
    container.append(
      el('div', { class: 'row' }, this.play, this.slider, this.readout),
      el('div', { class: 'row' }, this.speed, this.follow, toggle('points', 'points'),
        toggle('normal', 'normal force'), toggle('friction', 'friction force'),
        el('label', {}, 'arrows', scale), this.scaleLabel));
    window.addEventListener('keydown', (event) => {
      if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
      const frame = Number(this.slider.value);
      if (event.key === ' ') { handlers.togglePlay(); event.preventDefault(); }
      else if (event.key === 'ArrowRight') handlers.seekFrame(Math.min(F - 1, frame + 1));
      else if (event.key === 'ArrowLeft') handlers.seekFrame(Math.max(0, frame - 1));
      else if (event.key === 'Home') handlers.seekFrame(0);
      else if (event.key === 'End') handlers.seekFrame(F - 1);
      else return;
      event.preventDefault();
    });
  }

  update(time, frame, playing) {
    this.slider.value = String(frame);
    this.play.textContent = playing ? '❚❚' : '▶';
    const end = this.run.times[this.run.times.length - 1];
    this.readout.textContent = `t = ${time.toFixed(3)} / ${end.toFixed(3)} s · frame ${frame + 1}/${this.run.times.length}`;
  }

  /// Arrow legend: an arrow of `length` metres stands for length / metresPerUnit of `unit`
  /// ('N' for forces, 'N·s' for impulses when dt is unknown).
  showScale(metresPerUnit, length, unit) {
    this.scaleLabel.textContent = `${length} m ≙ ${(length / metresPerUnit).toPrecision(3)} ${unit}`;
  }
}
