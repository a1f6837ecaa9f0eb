/** Sizes of the runs: the quick profile for `pnpm test`, the soak profile for `pnpm soak`. */
const soak = process.env.RELIABILITY_PROFILE === 'soak';
const num = (name: string, quick: number, long: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : soak ? long : quick;
};

export const profile = {
  soak,
  /** generated requests per endpoint on SQLite / PostgreSQL */
  fuzzRuns: num('RELIABILITY_FUZZ_RUNS', 150, 2000),
  fuzzRunsPg: num('RELIABILITY_FUZZ_RUNS_PG', 30, 300),
  /** upload+create cycles with SIGKILLs among them, and how many kills */
  crashCycles: num('RELIABILITY_CRASH_CYCLES', 15, 100),
  crashKills: num('RELIABILITY_CRASH_KILLS', 3, 15),
  importBooks: num('RELIABILITY_IMPORT_BOOKS', 10, 40),
  /** mixed-traffic load: seconds and connections */
  loadSeconds: num('RELIABILITY_LOAD_SECONDS', 6, 60),
  loadConnections: num('RELIABILITY_LOAD_CONNECTIONS', 16, 200),
};

import { mkdirSync, writeFileSync } from 'node:fs';

/** Figures of a suite, kept in results/<name>.json (read when docs/reliability.md is updated). */
export function recordFigures(name: string, figures: unknown): void {
  const dir = new URL('../results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL(`${name}${soak ? '.soak' : ''}.json`, dir), `${JSON.stringify(figures, null, 2)}\n`);
}
