#!/usr/bin/env node
// `build` of a workspace package (run in its folder): every src/**/*.ts but tests compiled on its own
// to dist/ (ESM, source maps), other files of src/ copied beside them, so dist/ mirrors src/ and paths
// taken relative to a module (import.meta.url) hold from either. dist/ is emptied first: a source
// removed leaves no stale module behind. Types are not emitted: `exports` point `types` at src/.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const files = readdirSync('src', { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
const isTest = (file) => /\.test\.ts$/.test(file);
const sources = files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !isTest(file));
const assets = files.filter((file) => !file.endsWith('.ts'));

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: sources,
  outbase: 'src',
  outdir: 'dist',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});
for (const file of assets) {
  const to = join('dist', file.slice('src/'.length));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(file, to);
}
