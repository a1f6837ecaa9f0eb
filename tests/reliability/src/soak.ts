import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

// `pnpm soak [--seconds 60] [--connections 200] [--runs 2000] [--cycles 100] [--kills 15] [-- vitest filters]`:
// the same suites as `pnpm test`, at soak size (load on SQLite and PostgreSQL).
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string' },
    connections: { type: 'string' },
    runs: { type: 'string' },
    cycles: { type: 'string' },
    kills: { type: 'string' },
  },
});
const env: Record<string, string> = { ...process.env, RELIABILITY_PROFILE: 'soak' } as Record<string, string>;
if (values.seconds) env.RELIABILITY_LOAD_SECONDS = values.seconds;
if (values.connections) env.RELIABILITY_LOAD_CONNECTIONS = values.connections;
if (values.runs) env.RELIABILITY_FUZZ_RUNS = values.runs;
if (values.cycles) env.RELIABILITY_CRASH_CYCLES = values.cycles;
if (values.kills) env.RELIABILITY_CRASH_KILLS = values.kills;
const res = spawnSync('vitest', ['run', ...positionals], { stdio: 'inherit', env, shell: false });
process.exit(res.status ?? 1);
