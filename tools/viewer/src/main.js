// Entry point of the page: loads the run, builds the viewer, and publishes its state as
// window.impetusViewer for scripts and tests:
//
//   ready, error            true once drawn; the message of a failure to load or draw
//   time, frameIndex, frameCount, playing, speed, followed       replay state (getters)
//   times()                 recorded times (s)
//   bodies()                body ids, in trajectory.csv order
//   bodyPose(id)            {p, q, v, w} shown for that body now (q as w, x, y, z)
//   pointCounts             {plot: {series: number of points}}
//   trackingFinite          with control.csv: every tracking-error point is finite (null: no such plot)
//   contactsDrawn           {contacts, points, arrows, penetrating} of the shown frame
//   instances               instance count per shape kind
//   summary, warnings       summary.json as read; what the page could not use
//   renderer                the WebGL renderer's name (software rasterisers draw without antialiasing)
//   fps(), renderCount      frames rendered in the last second; renders so far
//   lastFrameMs             {update, render}: JavaScript time of the last frame (the GPU's comes after)
//   resolutionScale         drawing-buffer resolution while playing (adaptive; 1 when paused)
//   screenPosition(id)      {x, y} in CSS px from the canvas' top left of the body's origin
//   seekTime(t), seekFrame(i), play(), pause(), setSpeed(x), follow(id), setBodiesVisible(bool)

import { loadRun } from './data/run.js';
import { Viewer } from './viewer.js';

const api = { ready: false, error: null };
window.impetusViewer = api;

function fail(error) {
  api.error = String(error && error.message ? error.message : error);
  const box = document.getElementById('loading');
  box.classList.add('error');
  box.textContent = `Cannot show this run: ${api.error}`;
  console.error(error);
}

/// The WebGL 2 renderer's name, and whether it rasterises in software (no GPU: Chromium's
/// SwiftShader, Mesa's llvmpipe), or null without WebGL 2. A probe context, released at once.
function probeWebGL() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return null;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  const lose = gl.getExtension('WEBGL_lose_context');
  if (lose) lose.loseContext();
  return { name, software: /swiftshader|llvmpipe|softpipe|software/i.test(name) };
}

async function start() {
  const loading = document.getElementById('loading');
  const run = await loadRun(document, (what) => { loading.textContent = `Loading ${what}…`; });
  const gpu = probeWebGL();
  if (!gpu) throw new Error('this browser has no WebGL 2, which the 3-D view needs');
  const viewer = new Viewer({
    canvas: document.getElementById('canvas'),
    view: document.getElementById('view'),
    controls: document.getElementById('controls'),
    plots: document.getElementById('plots'),
    panel: document.getElementById('panel'),
  }, run, { antialias: !gpu.software });
  for (const w of run.warnings) console.warn(`impetus viewer: ${w}`);
  const indexOf = (id) => {
    const b = run.bodyIndex.get(id);
    if (b === undefined) throw new Error(`no body "${id}"`);
    return b;
  };
  Object.defineProperties(api, {
    time: { get: () => viewer.time, enumerable: true },
    frameIndex: { get: () => viewer.frame, enumerable: true },
    frameCount: { get: () => viewer.F, enumerable: true },
    playing: { get: () => viewer.playing, enumerable: true },
    speed: { get: () => viewer.speed, enumerable: true },
    followed: { get: () => (viewer.followed >= 0 ? run.bodies[viewer.followed].id : null), enumerable: true },
    renderCount: { get: () => viewer.renderCount, enumerable: true },
    lastFrameMs: { get: () => ({ update: viewer.updateMs, render: viewer.renderMs }), enumerable: true },
    resolutionScale: { get: () => viewer.stage.resolutionScale, enumerable: true },
    contactsDrawn: { get: () => ({ ...viewer.contacts.drawn }), enumerable: true },
  });
  Object.assign(api, {
    times: () => Array.from(run.times),
    bodies: () => run.bodies.map((b) => b.id),
    bodyPose: (id) => viewer.bodyState(indexOf(id)),
    pointCounts: Object.fromEntries(Object.entries(viewer.plots).map(([k, p]) => [k, p.pointCounts()])),
    trackingFinite: viewer.plots.tracking ? viewer.plots.tracking.series.every((s) => s.y.every(Number.isFinite)) : null,
    instances: viewer.bodies.counts(),
    summary: run.summary,
    renderer: gpu.name,
    warnings: run.warnings.slice(),
    fps: () => viewer.fps(),
    screenPosition: (id) => {
      const o = 7 * indexOf(id);
      return viewer.stage.project(viewer.poses[o], viewer.poses[o + 1], viewer.poses[o + 2]);
    },
    seekTime: (t) => viewer.seekTime(t),
    seekFrame: (i) => viewer.seekFrame(i),
    play: () => viewer.play(),
    pause: () => viewer.pause(),
    setSpeed: (x) => { viewer.speed = x; },
    follow: (id) => viewer.follow(id === null ? -1 : indexOf(id)),
    setBodiesVisible: (visible) => { viewer.bodies.setVisible(visible); viewer.update(); },
  });
  loading.remove();
  api.ready = true;
}

start().catch(fail);
