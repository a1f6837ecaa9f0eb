import { makeEpub } from '@readlib/epub/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createOver, login, type Service, sleep, startService, uploadOver, workspace } from '../src/proc.js';
import { profile, recordFigures } from '../src/profile.js';
import { checkStore, integrity } from '../src/store-check.js';

const book = (i: number, run: string) =>
  makeEpub({
    title: `Crash test ${run} #${i}`,
    creators: [`Author ${i}`],
    publisher: 'Reliability Press',
    cover: i % 2 === 0,
    chapters: Array.from({ length: 6 }, (_, c) => ({
      title: `Chapter ${c}`,
      body: `<p>${'text '.repeat(4000)}</p>`,
    })),
  });

describe('admin service killed with SIGKILL during upload + create cycles', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it(`${profile.crashCycles} cycles, ${profile.crashKills} kills: integrity ok, whole books only, no orphans, creating continues`, async () => {
    const ws = await workspace();
    cleanups.push(ws.remove);
    const run = Math.random().toString(36).slice(2, 8);
    // the kills fall on random cycles, phases and moments (seeded by fast-check, printed on failure)
    const plan = fc.sample(
      fc.record({ phase: fc.constantFrom('upload', 'create'), delayMs: fc.integer({ min: 0, max: 60 }) }),
      profile.crashKills,
    );
    const killAt = new Map<number, { phase: string; delayMs: number }>();
    const cycles = fc.sample(fc.integer({ min: 1, max: profile.crashCycles - 2 }), profile.crashKills * 3);
    for (const c of cycles)
      if (killAt.size < profile.crashKills && !killAt.has(c)) killAt.set(c, plan[killAt.size]!);

    let svc: Service = await startService('admin', ws.env);
    cleanups.push(async () => void (await svc.kill('SIGKILL')));
    let token = await login(svc.url);
    const acknowledged: string[] = [];
    const figures = {
      cycles: 0,
      kills: 0,
      killedIn: { upload: 0, create: 0 },
      retriedCreates: 0,
      integrityChecks: 0,
    };

    const restart = async () => {
      const exit = await svc.kill('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      figures.kills++;
      expect(integrity(ws.dbFile)).toBe('ok');
      figures.integrityChecks++;
      svc = await startService('admin', ws.env);
      token = await login(svc.url);
    };

    for (let i = 0; i < profile.crashCycles; i++) {
      figures.cycles++;
      const kill = killAt.get(i);
      const epub = book(i, run);
      if (kill?.phase === 'upload') {
        const pending = uploadOver(svc.url, token, epub).catch((e: Error) => ({
          status: 0,
          body: e.message,
        }));
        await sleep(kill.delayMs);
        await restart();
        figures.killedIn.upload++;
        await pending;
        continue; // the upload may be half-done: the cleanup must deal with it
      }
      const up = await uploadOver(svc.url, token, epub);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const fileName: string = up.body.data.fileName;
      if (kill?.phase === 'create') {
        const pending = createOver(svc.url, token, fileName).catch((e: Error) => ({
          status: 0,
          body: e.message,
        }));
        await sleep(kill.delayMs);
        await restart();
        figures.killedIn.create++;
        const before = await pending;
        // unknown outcome: retrying is safe, it either creates the book now or says it exists
        const retry = await createOver(svc.url, token, fileName);
        figures.retriedCreates++;
        expect([200, 409], JSON.stringify({ before, retry })).toContain(retry.status);
        acknowledged.push(fileName);
        continue;
      }
      const created = await createOver(svc.url, token, fileName);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      acknowledged.push(fileName);
    }

    // creating continues after the last restart
    const last = await uploadOver(svc.url, token, book(10_000, run));
    expect(last.status).toBe(200);
    expect((await createOver(svc.url, token, last.body.data.fileName)).status).toBe(200);
    acknowledged.push(last.body.data.fileName);
    expect((await svc.kill('SIGTERM')).code).toBe(0);

    expect(integrity(ws.dbFile)).toBe('ok');
    const report = await checkStore(ws.dbFile, ws.storage);
    expect(report.incomplete).toEqual([]);
    expect(report.orphansLeft).toEqual([]);
    expect(report.tmpLeft).toEqual([]);
    const missing = acknowledged.filter((f) => !report.books.includes(f));
    expect(missing).toEqual([]);
    recordFigures('crash', {
      ...figures,
      acknowledgedCreates: acknowledged.length,
      books: report.books.length,
      cleanup: report.cleanup,
      lost: missing.length,
    });
    console.log(
      '[crash]',
      JSON.stringify({ ...figures, books: report.books.length, cleanup: report.cleanup }),
    );
  }, 900_000);
});
