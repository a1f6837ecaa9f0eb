#!/usr/bin/env node
// `build` of a workspace package (run in its folder): every src/**/*.ts but tests compiled on its own
// to dist/ (ESM, source maps), other files of src/ copied beside them, so dist/ mirrors src/ and paths
// taken relative to a module (import.meta.url) hold from either. Types are not emitted: `exports` point
// `types` at src/.
// The build is written to a new folder beside dist/, which then takes dist/'s place by two renames: a
// source removed leaves no stale module behind, and a process that starts while a build runs (a unit
// restarted during an upgrade's build) finds a whole dist/, the old one or the new one, never an empty one.
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const files = readdirSync('src', { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
const isTest = (file) => /\.test\.ts$/.test(file);
const sources = files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !isTest(file));
const assets = files.filter((file) => !file.endsWith('.ts'));

// siblings of dist/, so the source maps' relative paths to src/ hold once renamed; ignored by git
const NEXT = '.dist-next';
const PREVIOUS = '.dist-previous';
rmSync(NEXT, { recursive: true, force: true });
rmSync(PREVIOUS, { recursive: true, force: true });
await build({
  entryPoints: sources,
  outbase: 'src',
  outdir: NEXT,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
for (const file of assets) {
  const to = join(NEXT, file.slice('src/'.length));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(file, to);
}
if (existsSync('dist')) renameSync('dist', PREVIOUS);
renameSync(NEXT, 'dist');
rmSync(PREVIOUS, { recursive: true, force: true });
