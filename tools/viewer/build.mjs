// Bundles the viewer into one HTML template: the page, its CSS and all of its JavaScript
// (three.js included) inline, and a marker where `impetus view` puts the run's data.
//
//   node build.mjs --node-modules DIR --out FILE
//
// DIR is the node_modules that `npm ci` filled (in the build tree, not the source tree); FILE is
// the template written, e.g. BUILD/tools/viewer/dist/viewer.html.

import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA_MARKER = '<!--IMPETUS_DATA-->';

function argument(name) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) {
    console.error(`usage: node build.mjs --node-modules DIR --out FILE (missing ${name})`);
    process.exit(2);
  }
  return path.resolve(process.argv[i + 1]);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const nodeModules = argument('--node-modules');
const out = argument('--out');
const require = createRequire(path.join(nodeModules, 'noop.js'));
const esbuild = require('esbuild');

const result = await esbuild.build({
  entryPoints: [path.join(here, 'src', 'main.js')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
  nodePaths: [nodeModules],          // resolve 'three' from the build tree's node_modules
  legalComments: 'eof',
  charset: 'ascii',                  // the page is correct whatever encoding a browser assumes
  write: false,
  logLevel: 'warning',
});
let js = result.outputFiles[0].text;
// Inline in a <script>, the text "</script" would end the element early; "<\/script" is the
// same string to JavaScript (in strings, regular expressions and comments alike).
js = js.replace(/<\/(script)/gi, '<\\/$1');
const css = readFileSync(path.join(here, 'src', 'style.css'), 'utf8');
const template = readFileSync(path.join(here, 'src', 'template.html'), 'utf8');
// Function replacers: '$' in the bundle must not be read as a replacement pattern.
const html = template.replace('/*IMPETUS_CSS*/', () => css).replace('/*IMPETUS_JS*/', () => js);
if (html.split(DATA_MARKER).length !== 2) throw new Error(`template must hold ${DATA_MARKER} exactly once`);

mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(`${out}.tmp`, html);
renameSync(`${out}.tmp`, out);      // never leave a half-written template for `impetus view`
console.log(`viewer: wrote ${out} (${(html.length / 1024).toFixed(0)} KiB)`);
