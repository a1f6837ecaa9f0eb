import { parseArgs } from 'node:util';
import { startChurn } from './lib/churn.js';
import { endpoints } from './lib/endpoints.js';
import { adminLogin, loadGet } from './lib/load.js';
import { machine, writeResult } from './lib/report.js';
import { removeShelvedSince, sampleOf, startServer } from './lib/servers.js';

/**
 * pnpm --filter @readlib/bench run bench:http --db .data/books-100000.db [--seconds 8] [--connections 32]
 *
 * Each endpoint against a bare Fastify JSON route served the same way (own process, logger off), with
 * autocannon in this process as the load generator on loopback. Reports req/s, the ratio to the bare
 * route, p50/p99 latency, and errors / non-2xx responses. `--sample N`: requests name N books drawn
 * uniformly (half of them; the other half as often as the view log names them). `--churn N`: N book edits per second through
 * the admin API during each reader endpoint's run (an operator at work: the catalogue version moves).
 * Before its `--warmup` seconds, each reader endpoint but the shelf's writes is sent `--fill` requests
 * per sampled reader (default 10, as bench:shipped): a running service holds its readers' shelves,
 * liked categories and users, and on a slow machine a few seconds of warm-up leave a large share of
 * first visits in the measured run, each a few round trips on PostgreSQL.
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.data/books-100000.db' },
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    label: { type: 'string', default: '' },
    // book edits per second through the admin API while each reader endpoint is measured
    churn: { type: 'string', default: '0' },
    // how many books (and users) requests are drawn from, uniformly, beside the view-weighted ones
    sample: { type: 'string', default: '2000' },
    // requests per sampled reader sent to each reader endpoint before its warm-up (0: none)
    fill: { type: 'string', default: '10' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const db = values.db;
const sample = await sampleOf(db, Number(values.sample));
/**
 * When shelf/save began: its warm-up's entries, and whatever shelf/remove (the same draws, for fewer
 * requests) did not take back, are removed at the end. They were left before, so each run grew the
 * sampled users' shelves (by ~70 books after a few runs) and the next runs' shelf/get served those.
 */
let shelvesSince: number | undefined;
const servers = {
  bare: await startServer('bare'),
  reader: await startServer('reader', db),
  admin: await startServer('admin', db),
};
try {
  const token = await adminLogin(servers.admin);
  const rows: Array<Record<string, string | number>> = [];
  let bare = 0;
  for (const [i, ep] of endpoints(sample, token).entries()) {
    if (values.only && ep.name !== 'bare' && !values.only.split(',').includes(ep.name)) continue;
    if (ep.name === 'shelf/save') shelvesSince ??= Date.now();
    const server = servers[ep.server];
    const seed = ep.name === 'shelf/remove' ? 1000 + i - 1 : 1000 + i;
    const churn =
      ep.server === 'reader' ? startChurn(servers.admin.url, token, sample, Number(values.churn)) : undefined;
    const fill = Number(values.fill);
    if (fill > 0 && ep.server === 'reader' && ep.name !== 'shelf/save' && ep.name !== 'shelf/remove')
      await loadGet(server.url, ep.path, {
        connections,
        seconds: 0,
        seed: seed + 400,
        requests: fill * sample.openIds.length,
        headers: ep.headers,
      });
    if (Number(values.warmup) > 0 && ep.name !== 'shelf/remove')
      await loadGet(server.url, ep.path, {
        connections,
        seconds: Number(values.warmup),
        seed: seed + 500,
        headers: ep.headers,
      });
    if (ep.server !== 'bare') await eventLoopLag(server.url); // reads reset the histogram
    const cpuBefore = server.cpuMs();
    const res = await loadGet(server.url, ep.path, { connections, seconds, seed, headers: ep.headers });
    const cpuUsed = server.cpuMs() - cpuBefore;
    const lag = ep.server === 'bare' ? undefined : await eventLoopLag(server.url);
    const edits = await churn?.stop();
    const rps = res.requests.average;
    if (ep.name === 'bare') bare = rps;
    const row = {
      endpoint: ep.name,
      'req/s': Math.round(rps),
      'ratio to bare': Number((rps / bare).toFixed(2)),
      'p50 ms': res.latency.p50,
      'p99 ms': res.latency.p99,
      // the server's own CPU per answered request: steadier than req/s on a shared machine
      'server CPU µs/req': res.requests.total ? Math.round((cpuUsed * 1000) / res.requests.total) : 0,
      // the longest the server's event loop was held during the run: every request waits that long
      'loop max ms': lag?.max ?? 0,
      errors: res.errors + res.timeouts,
      non2xx: res.non2xx,
      'server RSS MiB': Math.round(server.rssMiB()),
      ...(Number(values.churn) > 0
        ? { 'book edits ok': edits?.ok ?? 0, 'edits failed': edits?.failed ?? 0 }
        : {}),
    };
    rows.push(row);
    console.error(JSON.stringify(row));
  }
  console.table(rows);
  writeResult('http', {
    machine: machine(),
    db: db.replace(/\/\/[^@]*@/, '//'),
    books: sample.books,
    connections,
    seconds,
    label: values.label,
    churn: Number(values.churn),
    rows,
  });
} finally {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  if (shelvesSince !== undefined) await removeShelvedSince(db, shelvesSince);
}

/** The server's event-loop delay since the last read (prom-client resets its histogram on each read). */
async function eventLoopLag(url: string): Promise<{ max: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const max = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1];
  return { max: max === undefined ? 0 : Math.round(Number(max) * 1000) };
}
