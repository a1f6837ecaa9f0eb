import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Comments say why and what must hold. Measured timings belong to BENCHMARKS.md, and the story of how
// a line came to be (an audit, a review, an issue number) to git history: both go stale in code.
// A repository-wide rule, so turbo.json gives this package's test the other packages' sources as inputs.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const self = fileURLToPath(import.meta.url);
const SOURCE = /\.(ts|mts|mjs|vue)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'openapi', 'coverage']);

/** Source files below `dir`, skipping build output and dependencies. */
function sources(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    if (SKIPPED.has(e.name) || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return SOURCE.test(e.name) ? [path] : [];
  });
}

/** The workspace's packages (apps/*, packages/*, tests/*) and bench/. */
function workspaces(): string[] {
  const nested = ['apps', 'packages', 'tests'].flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(root, group, e.name)),
  );
  return [...nested, join(root, 'bench')];
}

/** Each comment line of a file (a whole-line comment, or the comment after code) with its number. */
function commentLines(file: string): Array<{ where: string; text: string }> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found: Array<{ where: string; text: string }> = [];
  for (const [i, line] of lines.entries()) {
    const text = /^\s*(\/\/|\/\*|\*|<!--)/.test(line) ? line : /\s\/\/\s(.*)$/.exec(line)?.[1];
    if (text !== undefined) found.push({ where: `${relative(root, file)}:${i + 1}`, text: text.trim() });
  }
  return found;
}

/** A measured timing: a number in µs or ms, or "N times faster". */
export const TIMING = /\d\s?(µs|us|ms)\b|\d\s?(x|times) (faster|slower)\b/i;
/** The story of a change: an audit, a review, an issue by number. */
export const HISTORY = /\baudit|\breview(ed)? (found|showed)|\bissue\s?#?\d+|#\d{2,}\b/i;

const offending = (lines: Array<{ where: string; text: string }>, rule: RegExp) =>
  lines.filter((l) => rule.test(l.text)).map((l) => `${l.where}: ${l.text}`);

describe("the repository's source comments", () => {
  const all = workspaces();
  // bench/ measures: its comments may name the units and intervals of what it measures
  const srcFolders = all
    .filter((w) => !w.endsWith('bench'))
    .flatMap((w) => [join(w, 'src'), join(w, 'scripts')]);
  const testFolders = all.map((w) => join(w, 'test'));

  it('finds the sources it checks', () => {
    expect(srcFolders.flatMap(sources).length).toBeGreaterThan(200);
    expect(testFolders.flatMap(sources).length).toBeGreaterThan(100);
  });

  it('in src, quote no timing in µs or ms', () => {
    expect(offending(srcFolders.flatMap(sources).flatMap(commentLines), TIMING)).toEqual([]);
  });

  it('in src, tests and bench, tell no story of an audit, a review or an issue number', () => {
    const files = [...srcFolders, ...testFolders, join(root, 'bench', 'src')]
      .flatMap(sources)
      .filter((f) => f !== self);
    expect(offending(files.flatMap(commentLines), HISTORY)).toEqual([]);
  });

  it('the rules catch what they are for, and let plain words through', () => {
    expect(TIMING.test('// a view costs ~300 µs of a 400 µs write')).toBe(true);
    expect(TIMING.test(' * held 58-65 ms')).toBe(true);
    expect(TIMING.test('// 3 times faster once merged')).toBe(true);
    expect(TIMING.test('/** between passive checkpoints (default 200) */')).toBe(false);
    expect(TIMING.test('// lockWaitMs: how long a write waits')).toBe(false);
    expect(HISTORY.test('// found by an audit: a FIFO hung the import')).toBe(true);
    expect(HISTORY.test('// the OPDS feeds (issue #32)')).toBe(true);
    expect(HISTORY.test('// a review found the join slow')).toBe(true);
    expect(HISTORY.test('// a FIFO must not hang the import')).toBe(false);
  });
});
