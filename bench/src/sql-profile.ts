import { parseArgs } from 'node:util';
import { loadConfig } from '@readlib/config';
import { createDb, updateBook } from '@readlib/data';
import { buildApp } from '@readlib/reader-api';
import SQLite from 'better-sqlite3';
import { rng } from './lib/gen.js';
import { type Sample, sampleOf, searchKeyword } from './lib/servers.js';

/**
 * pnpm --filter @readlib/bench run bench:sql --db .data/books-100000.db --endpoint detail|detail/anon|home|shelf|search|category [--requests 3000]
 *   [--checkpoints inline|background] [--edit-every N]
 *
 * Where a reader endpoint's SQLite time goes: the reader app in this process (no HTTP: `inject`, 32 at
 * a time), every better-sqlite3 statement timed by its SQL text. Prints µs per request for each text,
 * the total next to the request's whole in-process time, and how long commits took (p50, p90, max):
 * a checkpoint inside a commit shows as its maximum.
 * SQL_WIDTH=N prints N characters of each statement (default 110).
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.data/books-100000.db' },
    endpoint: { type: 'string', default: 'detail' },
    requests: { type: 'string', default: '3000' },
    checkpoints: { type: 'string', default: 'background' },
    // one book edit (another connection, not timed) every N requests: the catalogue version moves
    'edit-every': { type: 'string', default: '0' },
  },
});
const n = Number(values.requests);

const timings = new Map<string, { calls: number; ns: bigint }>();
let timing = true;
const commits: number[] = [];
const statement = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1'));
for (const method of ['all', 'get', 'run', 'iterate']) {
  const original = statement[method];
  statement[method] = function timed(this: { source: string }, ...args: unknown[]) {
    const start = process.hrtime.bigint();
    if (!timing) return original.apply(this, args);
    try {
      return original.apply(this, args);
    } finally {
      const ns = process.hrtime.bigint() - start;
      const t = timings.get(this.source) ?? { calls: 0, ns: 0n };
      t.calls += 1;
      t.ns += ns;
      timings.set(this.source, t);
      if (this.source === 'commit') commits.push(Number(ns) / 1e6);
    }
  };
}

const paths: Record<string, (s: Sample, i: number) => string> = {
  detail: (s, i) =>
    `/book/detail?fileName=${(i % 2 ? s.hotFileNames : s.fileNames)[(i * 7) % s.fileNames.length]}&openId=${s.openIds[i % s.openIds.length]}`,
  'detail/anon': (s, i) =>
    `/book/detail?fileName=${(i % 2 ? s.hotFileNames : s.fileNames)[(i * 7) % s.fileNames.length]}`,
  home: (s, i) => `/book/home/v2?openId=${s.openIds[i % s.openIds.length]}`,
  shelf: (s, i) => `/book/shelf/get?openId=${s.openIds[i % s.openIds.length]}`,
  category: () => '/book/category/list/v2',
  search: (s, i) =>
    `/book/search?keyword=${searchKeyword(s, draws)}&openId=${s.openIds[i % s.openIds.length]}`,
};
const draws = rng(1017);
const pathOf = paths[values.endpoint];
if (!pathOf) throw new Error(`--endpoint: one of ${Object.keys(paths).join(', ')}`);

const sample = await sampleOf(values.db);
const config = loadConfig(
  {
    NODE_ENV: 'development',
    DATABASE_URL: values.db,
    STORAGE_DIR: '.data/sql-profile-store',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    DEMO_CATALOGUE: 'false',
  },
  { dotenv: false },
);
const handle = createDb(config.database, {
  checkpoints: values.checkpoints === 'inline' ? 'inline' : 'background',
});
const app = await buildApp(config, { db: handle.db, logger: false, warm: true });
// the background checkpointer's passes: a log that only grows means the service's commits checkpoint
const passes = {
  checkpoint: 0,
  restart: 0,
  longestLog: 0,
  passiveMs: [] as number[],
  restartMs: [] as number[],
  attempts: [] as string[],
};
handle.checkpointer?.onEvent((e) => {
  if (e.type !== 'checkpoint' && e.type !== 'restart') return;
  passes[e.type]++;
  passes.longestLog = Math.max(passes.longestLog, e.log ?? 0);
  passes[e.type === 'restart' ? 'restartMs' : 'passiveMs'].push(e.ms ?? 0);
  if (e.type === 'restart') passes.attempts.push(`${e.attempts}${e.busy ? ' busy' : ''}`);
});
const editor = createDb(config.database);
const editEvery = Number(values['edit-every']);
let edits = 0;
/** renames a sampled book back and forth, as an operator would, through its own connection */
async function edit(i: number) {
  const k = (i * 13) % sample.fileNames.length;
  timing = false;
  try {
    await updateBook(editor.db, sample.fileNames[k]!, {
      title: edits++ % 2 ? sample.titles[k]! : `${sample.titles[k]} ·`,
    });
  } finally {
    timing = true;
  }
}
let next = 0;
const warmup = 300;
for (; next < warmup; next++) await app.inject(pathOf(sample, next));
timings.clear();
commits.length = 0;
const start = process.hrtime.bigint();
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < warmup + n) {
      const i = next++;
      if (editEvery > 0 && i % editEvery === 0) await edit(i);
      await app.inject(pathOf(sample, i));
    }
  }),
);
const wallUs = Number(process.hrtime.bigint() - start) / 1e3;
await app.close();
await handle.destroy();
await editor.destroy();

const rows = [...timings].map(([sql, t]) => ({ sql, calls: t.calls, us: Number(t.ns) / 1e3 }));
const sqlUs = rows.reduce((a, r) => a + r.us, 0);
console.log(
  `${values.endpoint}: ${n} requests, per request ${(wallUs / n).toFixed(0)} µs in all, ${(sqlUs / n).toFixed(0)} µs in SQLite`,
);
console.log('µs/request  µs/call   calls  sql');
for (const r of rows.sort((a, b) => b.us - a.us).slice(0, 15)) {
  const text = r.sql.replace(/\s+/g, ' ').slice(0, Number(process.env.SQL_WIDTH ?? 110));
  console.log(
    `${(r.us / n).toFixed(1).padStart(10)} ${(r.us / r.calls).toFixed(1).padStart(8)} ${String(r.calls).padStart(7)}  ${text}`,
  );
}
if (commits.length > 0) {
  commits.sort((a, b) => a - b);
  const q = (p: number) => commits[Math.min(commits.length - 1, Math.floor(commits.length * p))]!.toFixed(2);
  const sum = commits.reduce((a, b) => a + b, 0);
  console.log(
    `commits: ${commits.length}, p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, max ${q(1)} ms, ${sum.toFixed(0)} ms in all`,
  );
}
console.log(
  `checkpointer: ${passes.checkpoint} passive passes (max ${Math.max(0, ...passes.passiveMs).toFixed(1)} ms), ${passes.restart} log restarts (${passes.restartMs.map((m) => m.toFixed(1)).join(', ')} ms; attempts ${passes.attempts.join(', ')}), longest log ${passes.longestLog} frames`,
);
