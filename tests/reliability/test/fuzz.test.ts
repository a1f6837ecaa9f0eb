import { testDialects } from '@readlib/data/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Apps, buildApps } from '../src/apps.js';
import { type Contract, loadContract } from '../src/contract.js';
import { type FuzzStats, fuzzOperation, summarise, sweepOperation } from '../src/fuzz.js';
import { profile, recordFigures } from '../src/profile.js';

const dialects = await testDialects();
const figures: Record<string, Record<string, number>> = {};

afterAll(() => recordFigures('fuzz', figures));

describe.each(dialects)('generated inputs from the contracts ($name)', (dialect) => {
  let t: Apps;
  let reader: Contract;
  let admin: Contract;
  const runs = dialect.name === 'sqlite' ? profile.fuzzRuns : profile.fuzzRunsPg;

  beforeAll(async () => {
    t = await buildApps(dialect);
    reader = await loadContract(t.reader);
    admin = await loadContract(t.admin);
  });
  afterAll(() => t?.close());

  const report = (family: string, all: FuzzStats[]) => {
    const requests = all.reduce((n, s) => n + s.runs, 0);
    const swept = all
      .filter((s) => s.byKind['sweep-query'] || s.byKind['sweep-body'])
      .reduce((n, s) => n + s.runs, 0);
    const failures = all.flatMap((s) => s.failures.map((f) => ({ endpoint: s.endpoint, ...f })));
    figures[`${family}/${dialect.name}`] = {
      requests,
      generated: requests - swept,
      swept,
      endpoints: new Set(all.map((s) => s.endpoint)).size,
      failures: failures.length,
    };
    console.log(`[fuzz ${family} ${dialect.name}] ${requests} requests\n${summarise(all)}`);
    recordFigures(`fuzz-failures-${family}-${dialect.name}`, failures);
    expect(failures).toEqual([]);
  };

  it('every reader endpoint answers valid and hostile requests within its contract', async () => {
    const ops = reader.operations.filter((o) => !['/healthz', '/readyz'].includes(o.path));
    expect(ops.length).toBeGreaterThanOrEqual(19);
    const all: FuzzStats[] = [];
    for (const op of ops) {
      all.push(await fuzzOperation(t.reader, 'reader', op, t.pools, runs));
      all.push(await sweepOperation(t.reader, 'reader', op, t.pools));
    }
    report('reader', all);
  }, 600_000);

  it('every admin endpoint (with a valid token) answers valid and hostile requests within its contract', async () => {
    const ops = admin.operations.filter(
      (o) => !o.multipart && !['/healthz', '/readyz', '/openapi.json'].includes(o.path),
    );
    expect(ops.length).toBeGreaterThanOrEqual(14);
    const all: FuzzStats[] = [];
    for (const op of ops) {
      const auth = { authorization: `Bearer ${t.token}` };
      all.push(await fuzzOperation(t.admin, 'admin', op, t.pools, runs, auth));
      all.push(await sweepOperation(t.admin, 'admin', op, t.pools, auth));
    }
    report('admin', all);
  }, 600_000);
});
