// The viewer: ties the loaded run to the 3-D stage, the plots, the side panel and the playback
// bar, and keeps one replay time t that all of them show.
//
// Time: t runs continuously while playing (wall time × speed). The frame shown is the last
// recorded one at or before t (contacts, panel); body poses are interpolated between it and the
// next, so slow motion stays smooth; at a recorded time they are exactly the recorded poses.

import * as THREE from 'three';
import { frameAtTime, interpolatePose, niceStep } from './math.js';
import { BodyLayer } from './scene/bodies.js';
import { ContactLayer, defaultForceScale } from './scene/contacts.js';
import { Stage } from './scene/stage.js';
import { Controls } from './ui/controls.js';
import { Panel } from './ui/panel.js';
import { createPlots } from './ui/plots.js';

const PANEL_REFRESH_MS = 100;                         // side panel refresh while playing (10 Hz is readable)
// Adaptive resolution while playing: above SLOW_FRAME_MS between frames (under 25 frames/s) the
// drawing buffer shrinks by RESOLUTION_STEP, below FAST_FRAME_MS (over 45 frames/s) it grows back;
// never under MIN_RESOLUTION of the canvas. Paused frames are always drawn at full resolution.
const SLOW_FRAME_MS = 40;
const FAST_FRAME_MS = 22;
const RESOLUTION_STEP = 0.85;
const MIN_RESOLUTION = 0.4;
const FRAME_TIME_SMOOTHING = 0.8;                     // weight of the past in the frame-time average
const PENETRATION_TOLERANCE = 1e-6;                   // × typical body size: depth drawn as penetration

/// Centre and radius of what to look at: the dynamic bodies (with their reach) at the first and the
/// last frame; all bodies when none moves.
function sceneBounds(run, bodies) {
  const B = run.bodies.length, F = run.times.length;
  const box = new THREE.Box3();
  const dynamicOnly = bodies.isStatic.some((s) => !s);
  const point = new THREE.Vector3();
  for (const f of [0, F - 1]) {
    for (let b = 0; b < B; ++b) {
      if (dynamicOnly && bodies.isStatic[b]) continue;
      const o = (f * B + b) * 7;
      point.set(run.poses[o], run.poses[o + 1], run.poses[o + 2]);
      if (!Number.isFinite(point.x + point.y + point.z)) continue;
      const r = bodies.reach[b] || 0;
      box.expandByPoint(point.clone().addScalar(r));
      box.expandByPoint(point.clone().addScalar(-r));
    }
  }
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, 0), new THREE.Vector3(1, 1, 1));
  const sphere = box.getBoundingSphere(new THREE.Sphere());
  return { center: sphere.center, radius: Math.max(sphere.radius, 1e-3) };
}

function median(values) {
  const v = values.filter((x) => x > 0).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : 0;
}

export class Viewer {
  /// options.antialias: multisampling, worth its cost on a GPU only.
  constructor(elements, run, options = {}) {
    this.run = run;
    this.B = run.bodies.length;
    this.F = run.times.length;
    this.time = run.times[0];
    this.frame = 0;
    this.playing = false;
    this.speed = 1;
    this.followed = -1;
    this.poses = new Float64Array(7 * this.B);        // interpolated poses at this.time
    this.renderCount = 0;
    this.renderTimes = [];
    this.lastPanelUpdate = 0;

    this.stage = new Stage(elements.canvas, options);
    this.bodies = new BodyLayer(this.stage.scene, run, run.warnings);
    run.isStatic = this.bodies.isStatic;
    const { center, radius } = sceneBounds(run, this.bodies);
    const dynamicReach = Array.from(this.bodies.reach).filter((r, b) => !this.bodies.isStatic[b]);
    const typical = median(dynamicReach) || median(Array.from(this.bodies.reach)) || 0.05 * radius;
    const markerRadius = Math.min(0.1 * typical, 0.01 * radius);
    this.bodies.build(3 * markerRadius, this.stage);
    this.stage.setGround(run.geometry ? run.geometry.ground : { z: 0, normal: [0, 0, 1] }, center, radius);
    this.stage.frame(center, radius);
    this.arrowLength = typical;                        // m, for a typical normal force
    this.baseForceScale = defaultForceScale(run, this.arrowLength);
    // Penetration shown from a millionth of a typical body's size: deeper than the round-off of
    // gap computations, shallower than anything a contact model would be judged on.
    this.penetrationTolerance = PENETRATION_TOLERANCE * typical;
    this.contacts = new ContactLayer(this.stage, run, markerRadius, this.baseForceScale, this.penetrationTolerance);
    this.stage.onChange = () => { this.dirty = true; };

    this.panel = new Panel(elements.panel, run, this.penetrationTolerance);
    this.controls = new Controls(elements.controls, run, {
      togglePlay: () => (this.playing ? this.pause() : this.play()),
      seekFrame: (i) => this.seekFrame(i),
      setSpeed: (x) => { this.speed = x; },
      follow: (b) => this.follow(b),
      setLayer: (name, on) => { this.contacts.show[name] = on; this.dirty = true; },
      setArrowScale: (factor) => this.setArrowScale(factor),
    });
    this.setArrowScale(1);
    this.plots = createPlots(elements.plots, run, (t) => { this.pause(); this.seekTime(t); });

    this.canvasHost = elements.view;
    const resize = () => this.resize();
    new ResizeObserver(resize).observe(elements.view);
    new ResizeObserver(() => { for (const p of Object.values(this.plots)) p.resize(); }).observe(elements.plots);
    resize();
    for (const p of Object.values(this.plots)) p.resize();
    this.dirty = true;
    this.update();
    this.lastTick = performance.now();
    requestAnimationFrame((now) => this.tick(now));
  }

  resize() {
    const r = this.canvasHost.getBoundingClientRect();
    this.stage.resize(Math.max(1, Math.floor(r.width)), Math.max(1, Math.floor(r.height)));
    this.dirty = true;
  }

  play() {
    if (this.frame >= this.F - 1 && this.time >= this.run.times[this.F - 1]) this.time = this.run.times[0];
    this.playing = true;
    this.frameMs = undefined;
    this.lastTick = performance.now();
    this.dirty = true;
  }

  pause() {
    this.playing = false;
    this.stage.setResolutionScale(1);
    this.dirty = true;
  }

  /// One step of adaptive resolution from the time since the last frame (ms).
  adaptResolution(interval) {
    this.frameMs = this.frameMs === undefined ? interval
      : FRAME_TIME_SMOOTHING * this.frameMs + (1 - FRAME_TIME_SMOOTHING) * interval;
    const scale = this.stage.resolutionScale;
    if (this.frameMs > SLOW_FRAME_MS && scale > MIN_RESOLUTION) {
      this.stage.setResolutionScale(Math.max(MIN_RESOLUTION, scale * RESOLUTION_STEP));
      this.frameMs = undefined;                          // judge the new resolution afresh
    } else if (this.frameMs < FAST_FRAME_MS && scale < 1) {
      this.stage.setResolutionScale(Math.min(1, scale / RESOLUTION_STEP));
      this.frameMs = undefined;
    }
  }

  seekTime(t) {
    const times = this.run.times;
    this.time = Math.min(times[this.F - 1], Math.max(times[0], t));
    this.dirty = true;
    this.update();
  }

  seekFrame(i) {
    const f = Math.min(this.F - 1, Math.max(0, Math.round(i)));
    this.seekTime(this.run.times[f]);
  }

  follow(bodyIndex) {
    this.followed = bodyIndex >= 0 && bodyIndex < this.B ? bodyIndex : -1;
    this.bodies.highlight(this.followed);
    if (this.followed >= 0) {
      // Centre the view on the body, keeping the viewing direction and distance.
      const o = 7 * this.followed;
      const p = new THREE.Vector3(this.poses[o], this.poses[o + 1], this.poses[o + 2]);
      this.stage.translate(p.sub(this.stage.controls.target));
    }
    this.controls.follow.value = String(this.followed);
    this.dirty = true;
    this.update();
  }

  setArrowScale(factor) {
    this.contacts.forceScale = this.baseForceScale * factor;
    const legend = niceStep(this.arrowLength, 1);
    this.controls.showScale(this.contacts.forceScale, legend, this.run.dt ? 'N' : 'N·s');
    this.dirty = true;
  }

  tick(now) {
    if (this.playing) {
      this.time += ((now - this.lastTick) / 1000) * this.speed;
      this.adaptResolution(now - this.lastTick);
      const end = this.run.times[this.F - 1];
      if (this.time >= end) { this.time = end; this.pause(); }
      this.dirty = true;
    }
    this.lastTick = now;
    if (this.dirty) this.update();
    requestAnimationFrame((t) => this.tick(t));
  }

  /// Brings every part to this.time and renders.
  update() {
    const started = performance.now();
    const run = this.run, B = this.B, F = this.F;
    const f = frameAtTime(run.times, this.time);
    const next = Math.min(f + 1, F - 1);
    const span = run.times[next] - run.times[f];
    const s = span > 0 ? Math.min(1, Math.max(0, (this.time - run.times[f]) / span)) : 0;
    // Where the followed body was, to move the camera along with it (vectors reused: no garbage
    // per frame).
    const before = this.followBefore || (this.followBefore = new THREE.Vector3());
    const delta = this.followDelta || (this.followDelta = new THREE.Vector3());
    if (this.followed >= 0) {
      const o = 7 * this.followed;
      before.set(this.poses[o], this.poses[o + 1], this.poses[o + 2]);
    }
    const scratch = this.scratch || (this.scratch = new Float64Array(7));
    for (let b = 0; b < B; ++b) {
      if (s === 0) {
        this.poses.set(run.poses.subarray((f * B + b) * 7, (f * B + b) * 7 + 7), 7 * b);
      } else {
        interpolatePose(scratch, run.poses, (f * B + b) * 7, run.poses, (next * B + b) * 7, s);
        this.poses.set(scratch, 7 * b);
      }
    }
    this.frame = f;
    this.bodies.update(this.poses);
    this.contacts.update(f);
    if (this.followed >= 0) {
      const o = 7 * this.followed;
      delta.set(this.poses[o], this.poses[o + 1], this.poses[o + 2]).sub(before);
      if (Number.isFinite(delta.lengthSq()) && delta.lengthSq() > 0) this.stage.translate(delta);
    }
    for (const p of Object.values(this.plots)) p.setCursor(this.time);
    this.controls.update(this.time, f, this.playing);
    const now = performance.now();
    if (!this.playing || now - this.lastPanelUpdate > PANEL_REFRESH_MS) {
      this.lastPanelUpdate = now;
      this.panel.update(this.time, f, this.contacts.drawn, this.followed >= 0 ? this.bodyState(this.followed) : null,
        this.minimumGap(f), this.penetrationTolerance);
    }
    const rendering = performance.now();
    this.stage.render();
    const rendered = performance.now();
    this.updateMs = rendering - started;
    this.renderMs = rendered - rendering;
    this.renderCount += 1;
    this.renderTimes.push(now);
    while (this.renderTimes.length && now - this.renderTimes[0] > 1000) this.renderTimes.shift();
    this.dirty = false;
  }

  minimumGap(f) {
    const c = this.run.contacts;
    let m = Infinity;
    for (let i = c.frameStart[f]; i < c.frameStart[f + 1]; ++i) m = Math.min(m, c.gap[i]);
    return m;
  }

  /// Pose (interpolated at the replay time) and recorded twist (of the shown frame) of a body.
  bodyState(b) {
    const o = 7 * b, r = (this.frame * this.B + b) * 6;
    const tw = this.run.twists;
    return { id: this.run.bodies[b].id, p: Array.from(this.poses.subarray(o, o + 3)),
      q: Array.from(this.poses.subarray(o + 3, o + 7)),
      v: [tw[r], tw[r + 1], tw[r + 2]], w: [tw[r + 3], tw[r + 4], tw[r + 5]] };
  }

  /// Renders frames per second over the last second.
  fps() {
    const t = this.renderTimes;
    if (t.length < 2) return 0;
    return (1000 * (t.length - 1)) / Math.max(1, t[t.length - 1] - t[0]);
  }
}
