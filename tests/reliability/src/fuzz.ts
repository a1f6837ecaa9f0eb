import { foldKeyword } from '@readlib/data';
import type { App } from '@readlib/http';
import fc from 'fast-check';
import {
  BAD_SHELF,
  type GenRequest,
  HOSTILE_NUMBERS,
  HOSTILE_STRINGS,
  type Pools,
  requestArb,
  toUrl,
} from './arbitraries.js';
import { checkAnswer, type Family } from './check.js';
import type { Operation } from './contract.js';

export interface FuzzStats {
  endpoint: string;
  runs: number;
  byKind: Record<string, number>;
  byStatus: Record<string, number>;
  failures: Array<{ request: string; problems: string[] }>;
}

const describeReq = (op: Operation, r: GenRequest) =>
  JSON.stringify({
    kind: r.kind,
    url: toUrl(op.path, r.pairs).slice(0, 300),
    contentType: r.contentType,
    body: typeof r.body === 'string' ? r.body.slice(0, 300) : r.body ? `<${r.body.length} bytes>` : undefined,
  });

const newStats = (op: Operation): FuzzStats => ({
  endpoint: `${op.method} ${op.path}`,
  runs: 0,
  byKind: {},
  byStatus: {},
  failures: [],
});

/** Sends one request and records its answer's problems (the first 5 failures are kept). */
async function tryRequest(
  app: App,
  family: Family,
  op: Operation,
  r: GenRequest,
  headers: Record<string, string>,
  stats: FuzzStats,
): Promise<void> {
  const res = await app.inject({
    method: op.method,
    url: toUrl(op.path, r.pairs),
    headers: { ...headers, ...(r.contentType !== undefined ? { 'content-type': r.contentType } : {}) },
    ...(r.body !== undefined ? { payload: r.body } : {}),
  });
  stats.runs++;
  stats.byKind[r.kind] = (stats.byKind[r.kind] ?? 0) + 1;
  stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
  // what this or an earlier request stored (search log, names) may come back as data: not a leak; the
  // search log keeps keywords folded (lower case), so the word cloud echoes them in that form
  const sent = [
    ...r.pairs.map(([, v]) => v),
    ...(typeof r.body === 'string' ? [r.body] : []),
    ...HOSTILE_STRINGS,
    ...HOSTILE_STRINGS.map(foldKeyword),
  ];
  const problems = checkAnswer(
    op,
    family,
    {
      status: res.statusCode,
      body: res.body,
      contentType: res.headers['content-type'] as string | undefined,
    },
    sent,
  );
  if (problems.length && stats.failures.length < 5)
    stats.failures.push({ request: describeReq(op, r), problems });
}

/**
 * Drives one operation with generated valid and invalid requests through app.inject and checks every
 * answer against the contract; failures are collected (first 5 kept) instead of stopping the run.
 */
export async function fuzzOperation(
  app: App,
  family: Family,
  op: Operation,
  pools: Pools,
  numRuns: number,
  headers: Record<string, string> = {},
  seed?: number,
): Promise<FuzzStats> {
  const stats = newStats(op);
  await fc.check(
    fc.asyncProperty(requestArb(op, pools), async (r) => {
      await tryRequest(app, family, op, r, headers, stats);
      return true;
    }),
    { numRuns, seed, endOnFailure: true },
  );
  return stats;
}

/** Fuzz figures as one line per endpoint, for the test log and docs/reliability.md. */
export function summarise(all: FuzzStats[]): string {
  return all
    .map((s) => `${s.endpoint.padEnd(32)} runs=${s.runs} statuses=${JSON.stringify(s.byStatus)}`)
    .join('\n');
}

/**
 * The deterministic half: every hostile string and number in every query parameter and body field of
 * the operation, once each, the other parameters valid (so a rare draw of the random half is never the
 * only way a known-bad input is tried).
 */
export async function sweepOperation(
  app: App,
  family: Family,
  op: Operation,
  pools: Pools,
  headers: Record<string, string> = {},
): Promise<FuzzStats> {
  const stats = newStats(op);
  const base: Record<string, string> = {};
  for (const p of op.query) {
    if (!p.required) continue;
    base[p.name] =
      p.name === 'shelf'
        ? JSON.stringify({ openId: pools.openIds[0], fileName: pools.fileNames[0] })
        : /filename/i.test(p.name)
          ? pools.fileNames[0]!
          : /openid/i.test(p.name)
            ? pools.openIds[0]!
            : p.schema.type === 'integer'
              ? String(p.schema.minimum ?? 1)
              : 'x';
  }
  const bodyBase: Record<string, unknown> = {};
  for (const k of op.body?.required ?? []) bodyBase[k] = /filename/i.test(k) ? pools.fileNames[0] : 'x';
  const cases: GenRequest[] = [];
  for (const p of op.query) {
    const values =
      p.name === 'shelf' ? [...HOSTILE_STRINGS, ...BAD_SHELF] : [...HOSTILE_STRINGS, ...HOSTILE_NUMBERS];
    for (const v of values) {
      cases.push({ kind: 'sweep-query', pairs: Object.entries({ ...base, [p.name]: v }) });
    }
  }
  for (const k of Object.keys(op.body?.properties ?? {})) {
    for (const v of [...HOSTILE_STRINGS, ...HOSTILE_NUMBERS.map(Number)]) {
      cases.push({
        kind: 'sweep-body',
        pairs: Object.entries(base),
        body: JSON.stringify({ ...bodyBase, [k]: v }),
        contentType: 'application/json',
      });
    }
  }
  for (const r of cases) await tryRequest(app, family, op, r, headers, stats);
  return stats;
}
