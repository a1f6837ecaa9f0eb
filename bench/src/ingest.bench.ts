import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, migrateToLatest } from '@readlib/data';
import { bigEpub } from './lib/big-epub.js';
import { adminLogin } from './lib/load.js';
import { machine, percentile, writeResult } from './lib/report.js';
import { type Server, startServer } from './lib/servers.js';

/**
 * pnpm --filter @readlib/bench run bench:ingest [--n 50] [--mb 1] [--big-mb 100] [--db <file>]
 *
 * Ingest, through the admin API over HTTP (server in its own process):
 * (a) upload + create of a ~`--mb` MiB EPUB (incompressible chapter bodies), `--n` times, p50/p99 ms;
 * (b) one upload + create of a ~`--big-mb` MiB EPUB while sampling the server's VmRSS every 10 ms,
 * plus the kernel's VmHWM (high-water mark) of the server process at the end.
 */
const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '50' },
    mb: { type: 'string', default: '1' },
    'big-mb': { type: 'string', default: '100' },
    db: { type: 'string' },
  },
});
const MiB = 1024 * 1024;

function procStatus(pid: number): { rssMiB: number; hwmMiB: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? 0);
  return { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 };
}

async function uploadAndCreate(admin: Server, token: string, epub: Buffer, name: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([epub], { type: 'application/epub+zip' }), name);
  const up = await fetch(`${admin.url}/book/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const upBody = (await up.json()) as { error_code?: number; data?: { fileName?: string }; msg?: string };
  if (!up.ok || !upBody.data?.fileName) throw new Error(`upload ${up.status}: ${JSON.stringify(upBody)}`);
  const cr = await fetch(`${admin.url}/book/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fileName: upBody.data.fileName }),
  });
  if (!cr.ok) throw new Error(`create ${cr.status}: ${await cr.text()}`);
}

const n = Number(values.n);
const mb = Number(values.mb);
const bigMb = Number(values['big-mb']);
const filler = randomBytes(Math.ceil(Math.max(mb, 1) * MiB * 1.2));
const small = Array.from({ length: n > 0 ? n + 5 : 0 }, (_, i) => bigEpub(`Ingest bench ${i}`, mb, filler));

// default: a fresh, migrated SQLite file (the catalogue size hardly matters to one insert)
const dbFile = values.db ?? join(mkdtempSync(join(tmpdir(), 'readlib-ingest-')), 'ingest.db');
if (!values.db) {
  const h = createDb({ dialect: 'sqlite', file: dbFile });
  await migrateToLatest(h.db);
  await h.destroy();
}
const admin = await startServer('admin', dbFile);
const result: Record<string, unknown> = {
  machine: machine(),
  loadBefore: loadavg().map((x) => +x.toFixed(2)),
};
try {
  const token = await adminLogin(admin);
  // warm-up: JIT, statement cache, first mkdir of the store folders
  for (let i = 0; i < small.length - n; i++)
    await uploadAndCreate(admin, token, small[n + i]!, `warm-${i}.epub`);
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await uploadAndCreate(admin, token, small[i]!, `bench-${i}.epub`);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  if (n > 0)
    result.small = {
      epubBytes: small[0]!.length,
      n,
      p50: +percentile(ms, 50).toFixed(1),
      p99: +percentile(ms, 99).toFixed(1),
      max: +(ms[ms.length - 1] ?? 0).toFixed(1),
      rssAfterMiB: +procStatus(admin.pid).rssMiB.toFixed(0),
    };
  small.length = 0;

  if (bigMb > 0) {
    const big = bigEpub('Ingest bench big', bigMb, randomBytes(Math.ceil(bigMb * MiB * 1.05)));
    const before = procStatus(admin.pid);
    let peak = before.rssMiB;
    const sampler = setInterval(() => {
      peak = Math.max(peak, procStatus(admin.pid).rssMiB);
    }, 10);
    const t = process.hrtime.bigint();
    let error: string | undefined;
    try {
      await uploadAndCreate(admin, token, big, 'big.epub');
    } catch (err) {
      error = (err as Error).message.slice(0, 300);
    }
    const secs = Number(process.hrtime.bigint() - t) / 1e9;
    clearInterval(sampler);
    const after = procStatus(admin.pid);
    result.big = {
      epubBytes: big.length,
      seconds: +secs.toFixed(2),
      rssBeforeMiB: +before.rssMiB.toFixed(0),
      peakRssSampledMiB: +Math.max(peak, after.rssMiB).toFixed(0),
      vmHwmMiB: +after.hwmMiB.toFixed(0),
      error,
    };
  }
} finally {
  await admin.stop();
}
result.loadAfter = loadavg().map((x) => +x.toFixed(2));
writeResult('ingest', result);
