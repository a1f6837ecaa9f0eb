import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { endpoints } from './lib/endpoints.js';
import { loadGet } from './lib/load.js';
import { machine, writeResult } from './lib/report.js';
import { cpuOf, sampleOf, startServer } from './lib/servers.js';

/**
 * pnpm bench:shipped [-- --db .data/books-10000.db --seconds 5 --rounds 2 --only home/v2,search/title] [--rate N]
 *
 * The service as shipped: `node apps/cli/dist/start.js` (what `pnpm start` runs after its build), both
 * services in one process, production settings, every plugin on, its log (stdout) going to a file;
 * only the per-client rate limit is lifted for the load generator. Each round starts it twice, with
 * LOG_LEVEL=info (the default) and LOG_LEVEL=silent, in alternating order, so the machine's noise
 * falls on both. Before each endpoint is measured the service answers it for every value of the
 * sample about ten times (a count, so a slow machine is not measured while still filling what a
 * running service keeps), then for `--warmup` seconds. A bare Fastify JSON route in its own process
 * is measured just before each endpoint, which is reported as a ratio to it; autocannon runs in this
 * process. Needs `pnpm build` first.
 *
 * `--rate N`: each endpoint is sent N requests a second instead of as many as it answers, with no bare
 * route: what is compared is the service's CPU per request at the two levels under the same load,
 * which the machine's noise moves far less than the throughput of a saturated run.
 */
const { values } = parseArgs({
  // `pnpm bench:shipped -- --rounds 3` hands the `--` on
  args: process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--')),
  options: {
    db: { type: 'string', default: '.data/books-10000.db' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    // bench:http names of the endpoints to measure, comma-separated (default: every one below)
    only: { type: 'string' },
    // requests a second for each measured run (all connections together); none: as many as answered
    rate: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const rate = values.rate === undefined ? undefined : Number(values.rate);
if (rate !== undefined && !(rate > 0))
  throw new Error(`--rate must be a positive number, not ${values.rate}`);
// the service runs from the repository's root: the database is named absolutely
const db = resolve(values.db);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const START = join(ROOT, 'apps/cli/dist/start.js');
if (!existsSync(START)) throw new Error(`${START} is missing: run \`pnpm build\` first`);
if (!existsSync(db)) throw new Error(`${db} is missing: run \`pnpm bench:seed --books N\` first`);

/** The endpoints measured, by their bench:http names, with what each stands for. */
const MEASURED: Record<string, string> = {
  // the floor: the plugin stack, its hooks and the log with no SQL (not part of the default run)
  healthz: 'healthz',
  'category list': 'category list',
  'home/v2': 'home/v2',
  'detail/anon': 'detail/anon',
  detail: 'detail (registered reader)',
  'shelf/get': 'shelf/get',
  'search-list': 'search-list',
  'search/title': 'search (one keyword taken from a title)',
  'search/mix': 'search (1,000-keyword mix)',
};

interface Shipped {
  url: string;
  logFile: string;
  child: ChildProcess;
}

/** `node apps/cli/dist/start.js` with production settings; resolves once it printed its addresses. */
async function startShipped(level: 'info' | 'silent', work: string): Promise<Shipped> {
  const logFile = join(work, `service-${level}.log`);
  const out = openSync(logFile, 'w');
  // BENCH_CPU_PROF=<dir>: the service writes a V8 CPU profile there when it stops (as bench:http's servers)
  const prof = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...prof, START], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      READER_PORT: '0',
      ADMIN_PORT: '0',
      DATABASE_URL: db,
      STORAGE_DIR: join(work, 'storage'),
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      ADMIN_USERNAME: 'bench',
      ADMIN_PASSWORD: 'bench-password-1',
      DEMO_CATALOGUE: 'false',
      LOG_LEVEL: level,
      // the one setting changed from the shipped ones: the load generator is a single client
      RATE_LIMIT_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', out, 'inherit'],
  });
  closeSync(out);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /reader API {2}(http:\/\/\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
    if (url) return { url, logFile, child };
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`the service printed no address within 60 s: see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGTERM, as systemd stops it; resolves with its exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

const sample = await sampleOf(db);
/**
 * Requests of the filling pass per value of the sample (its readers, its books): ten, so that a value
 * of an endpoint drawing from two lists at even odds (detail: the hot books or any) is still asked
 * about five times on average, and missed by under 1% of the passes.
 */
const FILL_PER_VALUE = 10;
const only = values.only?.split(',').map((name) => name.trim());
const measured = endpoints(sample, '').filter(
  (ep) => ep.name in MEASURED && (!only || only.includes(ep.name)),
);
// at a fixed rate there is no throughput to compare with the bare route's
const bare = rate === undefined ? await startServer('bare') : undefined;
const work = mkdtempSync(join(tmpdir(), 'readlib-bench-shipped-'));
const runs: Array<Record<string, string | number>> = [];
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    const levels = round % 2 === 0 ? (['info', 'silent'] as const) : (['silent', 'info'] as const);
    for (const level of levels) {
      const service = await startShipped(level, work);
      try {
        for (const [i, ep] of measured.entries()) {
          // a running service holds its readers' shelves and liked categories and the books it answered
          // about; the same holds here before measuring, whatever the machine's speed: first a pass of
          // FILL_PER_VALUE requests per drawn reader or book (a count, not seconds), then `--warmup` s
          await loadGet(service.url, ep.path, {
            connections,
            seconds: 0,
            seed: 400 + i,
            requests: FILL_PER_VALUE * sample.openIds.length,
          });
          if (warmup > 0)
            await loadGet(service.url, ep.path, { connections, seconds: warmup, seed: 500 + i });
          // the bare route just before each endpoint: the machine's load moves within a block
          const bareRps = bare
            ? (await loadGet(bare.url, () => '/bare', { connections, seconds, seed: 1 })).requests.average
            : undefined;
          const cpuBefore = cpuOf(service.child.pid!);
          const res = await loadGet(service.url, ep.path, { connections, seconds, seed: 1000 + i, rate });
          const cpuUsed = cpuOf(service.child.pid!) - cpuBefore;
          if (rate !== undefined && res.requests.average < rate * 0.97)
            console.error(
              `${ep.name} at ${level}: ${Math.round(res.requests.average)} req/s, short of --rate ${rate}: its CPU per request is a saturated run's`,
            );
          runs.push({
            round: round + 1,
            log: level,
            endpoint: MEASURED[ep.name]!,
            'req/s': Math.round(res.requests.average),
            ...(bareRps === undefined
              ? {}
              : { 'ratio to bare': Number((res.requests.average / bareRps).toFixed(3)) }),
            'p50 ms': res.latency.p50,
            'p99 ms': res.latency.p99,
            // the service's own CPU per answered request: steadier than req/s on a shared machine
            'server CPU µs/req': Math.round((cpuUsed * 1000) / Math.max(1, res.requests.total)),
            'non-2xx': res.non2xx + res.errors,
          });
        }
      } finally {
        const code = await stop(service.child);
        const bytes = statSync(service.logFile).size;
        console.error(
          `round ${round + 1}, LOG_LEVEL=${level}: exit ${code}, log ${(bytes / 2 ** 20).toFixed(1)} MiB`,
        );
      }
    }
  }
} finally {
  await bare?.stop();
  rmSync(work, { recursive: true, force: true });
}

/** Per endpoint: the mean ratio to bare (or, at a fixed rate, CPU per request) at each level, and what logging at info costs of it. */
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const summary = measured.map((ep) => {
  const endpoint = MEASURED[ep.name]!;
  const at = (level: string) => runs.filter((r) => r.endpoint === endpoint && r.log === level);
  const ratio = (level: string) => mean(at(level).map((r) => r['ratio to bare'] as number));
  const cpu = (level: string) => mean(at(level).map((r) => r['server CPU µs/req'] as number));
  const throughput =
    rate === undefined
      ? {
          'ratio to bare, info': Number(ratio('info').toFixed(3)),
          'ratio to bare, silent': Number(ratio('silent').toFixed(3)),
          'logging cost, throughput %': Number(((1 - ratio('info') / ratio('silent')) * 100).toFixed(1)),
        }
      : { 'server CPU µs/req, info / silent': `${cpu('info').toFixed(1)} / ${cpu('silent').toFixed(1)}` };
  return {
    endpoint,
    ...throughput,
    'logging cost, CPU/req %': Number(((cpu('info') / cpu('silent') - 1) * 100).toFixed(1)),
    'p99 ms info / silent': `${mean(at('info').map((r) => r['p99 ms'] as number)).toFixed(1)} / ${mean(at('silent').map((r) => r['p99 ms'] as number)).toFixed(1)}`,
  };
});
console.table(runs);
console.table(summary);
writeResult('shipped', { machine: machine(), db, seconds, connections, rate, runs, summary });
