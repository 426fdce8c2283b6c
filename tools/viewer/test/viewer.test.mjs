// Headless-browser test of `impetus view`, run by ctest (tests/viewer/CMakeLists.txt):
// a short run of the box-stack scene, its view.html opened in Debian's Chromium from file:// with
// the network cut off, and the page's drawing and state checked against the run's files.
//
// Environment:
//   IMPETUS_NODE_MODULES   node_modules with playwright-core (the build tree's npm ci)   required
//   IMPETUS_BIN            the impetus executable                                        required
//   IMPETUS_TEST_SCENE     scene to run (default: scenes/stack10.xml of this repository)
//   IMPETUS_TEST_DURATION  simulated seconds (default 0.3: enough frames, a fast test)
//   IMPETUS_TEST_OUT       where the run, the page and the screenshot go (default: a temp dir)
//   CHROMIUM               the browser (default /usr/bin/chromium; `apt-get install chromium`)
//
//   node --test tools/viewer/test/viewer.test.mjs

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..', '..');
const env = {
  nodeModules: process.env.IMPETUS_NODE_MODULES,
  bin: process.env.IMPETUS_BIN,
  scene: process.env.IMPETUS_TEST_SCENE || path.join(repo, 'scenes', 'stack10.xml'),
  duration: process.env.IMPETUS_TEST_DURATION || '0.3',
  out: process.env.IMPETUS_TEST_OUT || mkdtempSync(path.join(os.tmpdir(), 'impetus-viewer-')),
  chromium: process.env.CHROMIUM || '/usr/bin/chromium',
};

// The flags the issue fixes for Debian's Chromium in a container without GPU.
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const VIEWPORT = { width: 1280, height: 860 };
const LOAD_TIMEOUT_MS = 60000;              // a software-rendered page of a short run loads in ~1 s
// Both trajectory.csv and summary.json print shortest round-trip doubles of the same final state,
// so the page's last-frame pose equals final_state to the last bit; this only absorbs a change of
// either writer to fixed precision (1e-9 m is far below anything a viewer can show).
const POSE_TOLERANCE = 1e-9;
// A channel difference that shading, ground and sky colours always exceed and antialiasing or
// dithering never reaches (8-bit channels).
const PIXEL_DIFFERENCE = 24;
// At least this share of the canvas must differ from the clear colour: a scene framed to fit its
// bodies, over a ground plane, covers far more; a failed draw leaves 0.
const MIN_DRAWN_FRACTION = 0.05;

let browser;                                // persistent context (fresh profile directory)
let page;
let runDir;
let pagePath;
const consoleErrors = [];
const networkAttempts = [];

// No network: the page must be whole. Every request that is not the file itself is refused and
// counted; offline mode covers what routing would not see.
async function routeOffline() {
  await browser.setOffline(true);
  await browser.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file://')) return route.continue();
    networkAttempts.push(url);
    return route.abort();
  });
}

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw result.error;
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/// Data rows of a CSV file (lines after the header that are not empty).
function csvRows(file) {
  return readFileSync(file, 'utf8').split('\n').slice(1).filter((line) => line.length > 0).length;
}

function watch(p) {
  p.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  p.on('pageerror', (error) => consoleErrors.push(String(error)));
}

async function waitReady(p) {
  await p.waitForFunction(() => window.impetusViewer && (window.impetusViewer.ready || window.impetusViewer.error),
    null, { timeout: LOAD_TIMEOUT_MS });
  const error = await p.evaluate(() => window.impetusViewer.error);
  assert.equal(error, null, `the page reports: ${error}`);
}

/// RGBA of canvas pixels at CSS positions, read through a 2-D canvas (the WebGL canvas keeps its
/// drawing buffer); with no positions, statistics of the whole canvas against its corner colour.
async function readCanvas(p, positions) {
  return p.evaluate(({ positions, difference }) => {
    const c = document.getElementById('canvas');
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const g = copy.getContext('2d');
    g.drawImage(c, 0, 0);
    const sx = c.width / c.clientWidth, sy = c.height / c.clientHeight;
    if (positions) {
      return positions.map((q) => Array.from(g.getImageData(Math.floor(q.x * sx), Math.floor(q.y * sy), 1, 1).data));
    }
    const data = g.getImageData(0, 0, c.width, c.height).data;
    const background = data.slice(0, 4);
    let differing = 0;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) {
      const d = Math.max(Math.abs(data[i] - background[0]), Math.abs(data[i + 1] - background[1]), Math.abs(data[i + 2] - background[2]));
      if (d > difference) ++differing;
      colours.add((data[i] >> 3) << 10 | (data[i + 1] >> 3) << 5 | data[i + 2] >> 3);
    }
    return { fraction: differing / (data.length / 4), colours: colours.size };
  }, { positions: positions || null, difference: 8 });
}

before(async () => {
  assert.ok(env.nodeModules, 'IMPETUS_NODE_MODULES must name the node_modules holding playwright-core');
  assert.ok(env.bin && existsSync(env.bin), `IMPETUS_BIN must name the impetus executable (got ${env.bin})`);
  assert.ok(existsSync(env.chromium), `${env.chromium} is missing: apt-get install -y chromium`);
  const { chromium } = createRequire(path.join(env.nodeModules, 'noop.js'))('playwright-core');

  mkdirSync(env.out, { recursive: true });
  runDir = path.join(env.out, 'run');
  rmSync(runDir, { recursive: true, force: true });
  run(env.bin, ['run', env.scene, '--duration', env.duration, '--out', runDir]);
  const printed = run(env.bin, ['view', runDir]).trim();
  pagePath = path.join(runDir, 'view.html');
  assert.equal(path.resolve(printed), path.resolve(pagePath), '`impetus view` prints the path of the page');

  const profile = mkdtempSync(path.join(os.tmpdir(), 'impetus-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: env.chromium, headless: true, args: CHROMIUM_FLAGS, viewport: VIEWPORT,
  });
  await routeOffline();
  page = browser.pages()[0] || await browser.newPage();
  watch(page);
  await page.goto(`file://${pagePath}`);
  await waitReady(page);
});

after(async () => {
  if (browser) await browser.close();
});

test('view.html opens from file:// with the network cut off, without console errors', async () => {
  assert.deepEqual(networkAttempts, [], 'the page asked for something beyond itself');
  assert.deepEqual(consoleErrors, []);
  const state = await page.evaluate(() => ({ frames: window.impetusViewer.frameCount, warnings: window.impetusViewer.warnings }));
  assert.equal(state.frames, csvRows(path.join(runDir, 'trajectory.csv')));
  // Every body of trajectory.csv has its geometry, and every file was understood.
  assert.deepEqual(state.warnings, []);
});

test('the scene draws: canvas not blank, boxes differ from what is behind them', async () => {
  await page.evaluate(() => window.impetusViewer.seekFrame(0));
  const whole = await readCanvas(page);
  assert.ok(whole.fraction > MIN_DRAWN_FRACTION, `only ${whole.fraction} of the canvas is drawn`);
  assert.ok(whole.colours > 20, `only ${whole.colours} colours on the canvas: shading is missing`);

  const geometry = JSON.parse(readFileSync(path.join(runDir, 'geometry.json'), 'utf8'));
  const boxes = geometry.bodies.filter((b) => b.shapes.some((s) => s.kind === 'box')).map((b) => b.id);
  assert.ok(boxes.length > 0, 'the scene has boxes');
  const positions = await page.evaluate((ids) => ids.map((id) => window.impetusViewer.screenPosition(id)), boxes);
  const size = await page.evaluate(() => {
    const r = document.getElementById('canvas').getBoundingClientRect();
    return { width: r.width, height: r.height };
  });
  for (const [i, q] of positions.entries()) {
    assert.ok(q && q.x >= 0 && q.y >= 0 && q.x < size.width && q.y < size.height, `${boxes[i]} is out of view: ${JSON.stringify(q)}`);
  }
  const withBodies = await readCanvas(page, positions);
  await page.evaluate(() => window.impetusViewer.setBodiesVisible(false));
  const without = await readCanvas(page, positions);
  await page.evaluate(() => window.impetusViewer.setBodiesVisible(true));
  for (const [i, id] of boxes.entries()) {
    const d = Math.max(...[0, 1, 2].map((k) => Math.abs(withBodies[i][k] - without[i][k])));
    assert.ok(d > PIXEL_DIFFERENCE, `${id}: pixel ${withBodies[i]} with the box vs ${without[i]} without`);
  }
});

test('scrubbing to the last frame shows the final pose of summary.json', async () => {
  const summary = JSON.parse(readFileSync(path.join(runDir, 'summary.json'), 'utf8'));
  await page.focus('#scrub');
  await page.keyboard.press('End');                  // the slider's own key: scrubs to its end
  const state = await page.evaluate(() => ({ frame: window.impetusViewer.frameIndex, count: window.impetusViewer.frameCount }));
  assert.equal(state.frame, state.count - 1);
  const ids = Object.keys(summary.final_state);
  assert.ok(ids.length > 0);
  const poses = await page.evaluate((list) => list.map((id) => window.impetusViewer.bodyPose(id)), ids);
  for (const [i, id] of ids.entries()) {
    const want = summary.final_state[id];
    const got = poses[i];
    for (let k = 0; k < 3; ++k) {
      assert.ok(Math.abs(got.p[k] - want.p[k]) <= POSE_TOLERANCE, `${id}.p[${k}]: page ${got.p[k]}, summary ${want.p[k]}`);
    }
    // q and −q are one rotation: compare along the sign that matches.
    const sign = got.q.reduce((s, x, k) => s + x * want.q[k], 0) < 0 ? -1 : 1;
    for (let k = 0; k < 4; ++k) {
      assert.ok(Math.abs(sign * got.q[k] - want.q[k]) <= POSE_TOLERANCE, `${id}.q[${k}]: page ${got.q[k]}, summary ${want.q[k]}`);
    }
  }
  await page.screenshot({ path: path.join(env.out, 'viewer.png') });
});

test('the energy plot has one point per recorded step, as do the per-step plots', async () => {
  const counts = await page.evaluate(() => window.impetusViewer.pointCounts);
  const steps = csvRows(path.join(runDir, 'trajectory.csv'));
  const statsRows = csvRows(path.join(runDir, 'stats.csv'));
  assert.equal(statsRows, steps, 'stats.csv and trajectory.csv record the same steps');
  for (const series of ['kinetic', 'potential', 'total']) assert.equal(counts.energy[series], steps, `energy ${series}`);
  assert.equal(counts.contacts.contacts, statsRows);
  assert.equal(counts.solver.iterations, statsRows);
  assert.equal(counts.solver.fallbacks, statsRows);
});

test('impetus view --serve serves the run on 127.0.0.1 and stops on SIGINT', async () => {
  const server = spawn(env.bin, ['view', runDir, '--serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
  try {
    const url = await new Promise((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${text}`)), 10000);
      server.stdout.on('data', (chunk) => {
        text += chunk;
        const m = text.match(/http:\/\/127\.0\.0\.1:\d+\//);
        if (m) { clearTimeout(timer); resolve(m[0]); }
      });
      server.on('exit', () => reject(new Error(`the server exited: ${text}`)));
    });
    await browser.setOffline(false);
    await browser.unroute('**/*');
    await browser.route('**/*', (route) => {
      const request = route.request().url();
      if (request.startsWith(url)) return route.continue();
      networkAttempts.push(request);
      return route.abort();
    });
    const served = await browser.newPage();
    watch(served);
    await served.goto(url);
    await waitReady(served);
    const state = await served.evaluate(() => ({ frames: window.impetusViewer.frameCount, bodies: window.impetusViewer.bodies().length,
      counts: window.impetusViewer.pointCounts }));
    assert.equal(state.frames, csvRows(path.join(runDir, 'trajectory.csv')));
    assert.equal(state.counts.energy.kinetic, state.frames);
    const summary = JSON.parse(readFileSync(path.join(runDir, 'summary.json'), 'utf8'));
    assert.equal(state.bodies, Object.keys(summary.final_state).length);
    await served.close();
    // Nothing but the page and the run's files is reachable.
    assert.equal((await fetch(`${url}view.html.partial`)).status, 404);
    assert.equal((await fetch(`${url}trajectory.csv`)).status, 200);
  } finally {
    server.kill('SIGINT');
  }
  const { code } = await exited;
  assert.equal(code, 0, 'the server stops cleanly on SIGINT');
});

test('a run without controllers has no torque or tracking plot', async () => {
  const counts = await page.evaluate(() => window.impetusViewer.pointCounts);
  assert.equal(counts.torque, undefined);
  assert.equal(counts.tracking, undefined);
});

test('with control.csv, τ and tracking error are plotted per driven joint, one point per recorded step', async () => {
  // The quadruped of models/quadruped held by joint PID on the ground (every one of its 12 joints is
  // driven and recorded in trajectory.csv).
  const dir = path.join(env.out, 'control');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const scene = path.join(dir, 'pid.xml');
  const urdf = path.join(repo, 'models', 'quadruped', 'quadruped.urdf');
  writeFileSync(scene, `<scene name="pid"><physics dt="0.001"/><ground/>
  <model name="quad" urdf="${urdf}" base="floating"><origin xyz="0 0 0.2"/>
    <controller type="pid" kp="5" kd="0.1"/></model></scene>`);
  const out = path.join(dir, 'run');
  run(env.bin, ['run', scene, '--duration', '0.05', '--out', out]);
  run(env.bin, ['view', out]);
  const rows = csvRows(path.join(out, 'control.csv'));
  // trajectory.csv also has the initial state (t = 0); control.csv only the steps.
  assert.equal(rows, csvRows(path.join(out, 'trajectory.csv')) - 1, 'control.csv records the steps trajectory.csv does');
  const header = readFileSync(path.join(out, 'control.csv'), 'utf8').split('\n')[0].split(',');
  const driven = header.filter((c) => c.endsWith('.tau')).map((c) => c.slice(0, -'.tau'.length));
  assert.equal(driven.length, 12);
  // Back to the offline file:// routing of before() (the --serve test routed to its server).
  await browser.unroute('**/*');
  await routeOffline();
  const viewed = await browser.newPage();
  watch(viewed);
  await viewed.goto(`file://${path.join(out, 'view.html')}`);
  await waitReady(viewed);
  const counts = await viewed.evaluate(() => window.impetusViewer.pointCounts);
  // Every step's error is finite: each control.csv row found its frame of trajectory.csv.
  const finite = await viewed.evaluate(() => window.impetusViewer.trackingFinite);
  await viewed.close();
  assert.equal(finite, true);
  assert.deepEqual(Object.keys(counts.torque).sort(), [...driven].sort());
  assert.deepEqual(Object.keys(counts.tracking).sort(), [...driven].sort());
  for (const j of driven) {
    assert.equal(counts.torque[j], rows, `τ of ${j}`);
    assert.equal(counts.tracking[j], rows, `tracking error of ${j}`);
  }
});

test('no console errors and no network requests over the whole session', () => {
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(networkAttempts, []);
});
