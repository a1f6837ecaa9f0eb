#!/usr/bin/env node
// `node tools/run-built.mjs <app>/dist/<entry>.js [args...]`: runs a compiled entry point, building it
// first (`turbo run build` of its package and the workspace packages it depends on) when a dist/ is
// missing or older than what it is built from. The check costs a few file stats, so a command whose
// build is current starts at once; turbo stays the one that decides what to rebuild.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node tools/run-built.mjs <package>/dist/<entry>.js [args...]');
  process.exit(2);
}
const entryPath = resolve(ROOT, entry);
const at = entryPath.lastIndexOf('/dist/');
if (at < 0) {
  console.error(`${entry}: not a compiled entry point (expected <package>/dist/<entry>.js)`);
  process.exit(2);
}
const packageDir = entryPath.slice(0, at);

/** name -> folder of every workspace package under apps/ and packages/ */
function workspacePackages() {
  const found = new Map();
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(ROOT, group))) {
      const file = join(ROOT, group, name, 'package.json');
      if (existsSync(file)) found.set(JSON.parse(readFileSync(file, 'utf8')).name, join(ROOT, group, name));
    }
  }
  return found;
}

/** The package and every workspace package it depends on, as { name, dir, manifest }. */
function closure(dir, all, seen = new Map()) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (seen.has(manifest.name)) return seen;
  seen.set(manifest.name, { dir, manifest });
  for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
    if (String(range).startsWith('workspace:') && all.has(name)) closure(all.get(name), all, seen);
  return seen;
}

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let most = stat.mtimeMs;
  for (const name of readdirSync(path)) most = Math.max(most, newest(join(path, name)));
  return most;
}

/** dist/ missing, or a source or the manifest changed after it was written (dist/ is emptied per build). */
function stale({ dir }) {
  const dist = join(dir, 'dist');
  if (!existsSync(dist)) return true;
  const built = statSync(dist).mtimeMs;
  return Math.max(newest(join(dir, 'src')), statSync(join(dir, 'package.json')).mtimeMs) > built;
}

const packages = closure(packageDir, workspacePackages());
const built = [...packages.values()].filter((p) => p.manifest.scripts?.build);
if (built.some(stale)) {
  const { name } = packages.values().next().value.manifest;
  // on stderr: what a command prints on stdout stays its own
  const turbo = join(ROOT, 'node_modules', '.bin', 'turbo');
  const run = spawnSync(turbo, ['run', 'build', `--filter=${name}...`, '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
    env: { TURBO_TELEMETRY_DISABLED: '1', ...process.env },
  });
  if (run.status !== 0) {
    console.error(`building ${name} failed (exit ${run.status ?? run.signal})`);
    process.exit(1);
  }
}
process.argv = [process.argv[0], entryPath, ...args];
await import(pathToFileURL(entryPath).href);
