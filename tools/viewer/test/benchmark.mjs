// Frames per second of a viewer page while it plays, in headless Chromium (software rendering:
// no GPU here). A benchmark, not a test: it prints numbers.
//
//   IMPETUS_NODE_MODULES=BUILD/tools/viewer/npm/node_modules \
//     node tools/viewer/test/benchmark.mjs RUN_DIR/view.html [--seconds 8] [--width 1400 --height 900]
//       [--no-contacts]      (contact points and arrows hidden: the bodies alone)
//
// The replay speed is set so that the whole run plays in a little more than the measured time;
// frames per second are renders per second of wall time (each render moves every instance).

import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const page = path.resolve(process.argv[2] || '');
const seconds = option('--seconds', 8);
const viewport = { width: option('--width', 1400), height: option('--height', 900) };
const { chromium } = createRequire(path.join(process.env.IMPETUS_NODE_MODULES || '', 'noop.js'))('playwright-core');

const browser = await chromium.launchPersistentContext(mkdtempSync(path.join(os.tmpdir(), 'impetus-bench-')), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, viewport,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const tab = browser.pages()[0] || await browser.newPage();
const started = Date.now();
await tab.goto(`file://${page}`);
await tab.waitForFunction(() => window.impetusViewer && (window.impetusViewer.ready || window.impetusViewer.error), null, { timeout: 300000 });
const loadSeconds = (Date.now() - started) / 1000;
if (process.argv.includes('--no-contacts')) {
  for (const id of ['#show-points', '#show-normal', '#show-friction']) await tab.uncheck(id);
}
const result = await tab.evaluate(async (seconds) => {
  const v = window.impetusViewer;
  if (v.error) return { error: v.error };
  const times = v.times();
  v.seekFrame(0);
  v.setSpeed((times[times.length - 1] - times[0]) / (1.2 * seconds));
  v.play();
  await new Promise((r) => setTimeout(r, 1000));     // let adaptive resolution settle
  const n0 = v.renderCount, t0 = performance.now();
  let scaleMin = 1;
  for (let k = 0; k < 10 * (seconds - 1); ++k) {
    await new Promise((r) => setTimeout(r, 100));
    scaleMin = Math.min(scaleMin, v.resolutionScale);
  }
  const fps = (v.renderCount - n0) / ((performance.now() - t0) / 1000);
  v.pause();
  return { fps, scaleMin, bodies: v.bodies().length, frames: v.frameCount, instances: v.instances, renderer: v.renderer };
}, seconds);
console.log(JSON.stringify({ page, loadSeconds, viewport, ...result }, null, 1));
await browser.close();
