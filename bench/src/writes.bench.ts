import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadGet } from './lib/load.js';
import { machine, writeResult } from './lib/report.js';
import { sampleOf, startServer } from './lib/servers.js';

/**
 * pnpm --filter @readlib/bench run bench:writes --db .data/books-100000.db [--seconds 10] [--procs 2]
 *
 * Target 5: shelf save / remove and rating save, mixed, against `--procs` reader-api processes attached
 * to the same SQLite file (a copy of `--db`, so the dataset is not changed), one autocannon per process
 * running at the same time. Reports writes/s (2xx responses per second, all processes), p50/p99 and the
 * non-2xx / error counts (a busy database would show as 5xx).
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.data/books-100000.db' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    procs: { type: 'string', default: '2' },
    label: { type: 'string', default: '' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const procs = Number(values.procs);

const dir = mkdtempSync(join(tmpdir(), 'readlib-writes-'));
const file = join(dir, 'writes.db');
copyFileSync(values.db, file);
for (const ext of ['-wal', '-shm'])
  if (existsSync(values.db + ext)) copyFileSync(values.db + ext, file + ext);

const s = await sampleOf(file);
const enc = (x: string) => encodeURIComponent(x);
const at = <T>(r: () => number, a: readonly T[]) => a[Math.floor(r() * a.length)]!;
const path = (r: () => number): string => {
  const openId = at(r, s.openIds);
  const fileName = at(r, s.fileNames);
  const k = r();
  if (k < 1 / 3)
    return `/book/rank/save?fileName=${fileName}&openId=${openId}&rank=${1 + Math.floor(r() * 5)}`;
  const shelf = enc(JSON.stringify({ openId, fileName }));
  return k < 2 / 3 ? `/book/shelf/save?shelf=${shelf}` : `/book/shelf/remove?shelf=${shelf}`;
};

const servers = await Promise.all(Array.from({ length: procs }, () => startServer('reader', file)));
try {
  await Promise.all(
    servers.map((sv, i) => loadGet(sv.url, path, { connections, seconds: 2, seed: 7000 + i })),
  ); // warm-up
  const load = loadavg().map((x) => +x.toFixed(2));
  const cpuBefore = servers.map((sv) => sv.cpuMs());
  const results = await Promise.all(
    servers.map((sv, i) => loadGet(sv.url, path, { connections, seconds, seed: 8000 + i })),
  );
  const cpuUsed = servers.reduce((a, sv, i) => a + sv.cpuMs() - cpuBefore[i]!, 0);
  const answered = results.reduce((a, res) => a + res.requests.total, 0);
  const per = results.map((res) => ({
    'req/s': Math.round(res.requests.average),
    '2xx/s': Math.round(res['2xx'] / seconds),
    'p50 ms': res.latency.p50,
    'p99 ms': res.latency.p99,
    non2xx: res.non2xx,
    errors: res.errors + res.timeouts,
  }));
  console.table(per);
  writeResult('writes', {
    machine: machine(),
    db: values.db,
    books: s.books,
    procs,
    connections,
    seconds,
    label: values.label,
    loadavg: load,
    writesPerSecond: per.reduce((a, p) => a + p['2xx/s'], 0),
    // CPU of every server process per answered write: steadier than writes/s on a shared machine
    serverCpuUsPerWrite: answered ? Math.round((cpuUsed * 1000) / answered) : 0,
    non2xx: per.reduce((a, p) => a + p.non2xx, 0),
    errors: per.reduce((a, p) => a + p.errors, 0),
    per,
  });
} finally {
  await Promise.all(servers.map((sv) => sv.stop()));
  rmSync(dir, { recursive: true, force: true });
}
