import { parseArgs } from 'node:util';
import { endpoints } from './lib/endpoints.js';
import { loadGet } from './lib/load.js';
import { machine, writeResult } from './lib/report.js';
import { sampleOf, startServer } from './lib/servers.js';

/**
 * pnpm --filter @readlib/bench run bench:cold --db .data/books-1000000.db [--windows 8] [--only home/v2,search]
 *
 * A reader process just started, second by second: for each endpoint, a new reader process with its
 * start-up warm-up (as startReaderServer runs it) and one started `--cold` (none), each loaded from its
 * first second by autocannon (32 connections) in one-second windows. Reports how long the process took
 * to listen (from spawn) and the CPU it used until then, and per window the server's CPU per request
 * and p99 latency. Modes alternate, so the machine's drift touches both.
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.data/books-1000000.db' },
    windows: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string', default: 'home/v2,detail,search' },
  },
});
const windows = Number(values.windows);
const connections = Number(values.connections);
const sample = await sampleOf(values.db);
const wanted = values.only.split(',');
const rows: Array<Record<string, string | number>> = [];
for (const ep of endpoints(sample, '').filter((e) => wanted.includes(e.name))) {
  for (const mode of ['warm', 'cold'] as const) {
    const spawned = performance.now();
    const server = await startServer('reader', values.db, mode === 'cold' ? ['--cold'] : []);
    const listenMs = Math.round(performance.now() - spawned);
    const startCpuMs = server.cpuMs();
    const cpu: number[] = [];
    const p99: number[] = [];
    try {
      for (let w = 0; w < windows; w++) {
        const before = server.cpuMs();
        const res = await loadGet(server.url, ep.path, { connections, seconds: 1, seed: 2000 + w });
        cpu.push(Math.round(((server.cpuMs() - before) * 1000) / Math.max(1, res.requests.total)));
        p99.push(res.latency.p99);
      }
    } finally {
      await server.stop();
    }
    const row = {
      endpoint: ep.name,
      start: mode,
      'listening after ms': listenMs,
      'CPU until listening ms': startCpuMs,
      'server CPU µs/req, by second': cpu.join(' '),
      'p99 ms, by second': p99.join(' '),
    };
    rows.push(row);
    console.error(JSON.stringify(row));
  }
}
console.table(rows);
writeResult('cold', { machine: machine(), db: values.db, connections, windows, rows });
