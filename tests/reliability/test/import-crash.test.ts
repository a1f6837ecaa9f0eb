import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeEpub } from '@readlib/epub/testing';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { run, SCRIPTS, sleep, workspace } from '../src/proc.js';
import { profile, recordFigures } from '../src/profile.js';
import { checkStore, integrity } from '../src/store-check.js';

function countBooks(dbFile: string): number {
  try {
    const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('select count(*) as n from books').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

const summary = (out: string[]) => {
  const line = out.find((l) => /imported \d+ files/.test(l)) ?? '';
  const m = /(\d+) added, (\d+) skipped as duplicate, (\d+) failed/.exec(line);
  return m ? { added: Number(m[1]), duplicate: Number(m[2]), failed: Number(m[3]) } : undefined;
};

describe('bulk import killed mid-run (pnpm cli import)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('the rerun adds only the missing books: total = distinct inputs, integrity ok, no orphans', async () => {
    const ws = await workspace();
    cleanups.push(ws.remove);
    const n = profile.importBooks;
    const src = join(ws.dir, 'incoming');
    await mkdir(src);
    for (let i = 0; i < n; i++) {
      const epub = makeEpub({
        title: `Import ${i}`,
        creators: [`Writer ${i}`],
        cover: i % 3 !== 0,
        chapters: Array.from({ length: 8 }, (_, c) => ({
          title: `C${c}`,
          body: `<p>${`w${i} `.repeat(20_000)}</p>`,
        })),
      });
      await writeFile(join(src, `book-${String(i).padStart(3, '0')}.epub`), epub);
      // the same bytes twice under another name: a duplicate, not a second book
      if (i === 1) await writeFile(join(src, 'copy-of-book-001.epub'), epub);
    }
    const target = 1 + Math.floor(Math.random() * (n - 2));
    const first = run(SCRIPTS.cli, ws.env, ['import', src]);
    const started = Date.now();
    while (
      countBooks(ws.dbFile) < target &&
      first.child.exitCode === null &&
      Date.now() - started < 120_000
    ) {
      await sleep(5);
    }
    const exit = await first.kill('SIGKILL');
    const committed = countBooks(ws.dbFile);
    expect(exit.signal, `the first run ended on its own after ${committed} books`).toBe('SIGKILL');
    expect(integrity(ws.dbFile)).toBe('ok');
    // a kill in the middle of a book leaves its temporary files: the rerun leaves them to their grace
    // period (another import may be using them), the cleanup below removes them
    const tmp = join(ws.storage, '.tmp');
    const crashLeftovers = existsSync(tmp) ? readdirSync(tmp).length : 0;

    const second = run(SCRIPTS.cli, ws.env, ['import', src]);
    const done = await second.exited;
    expect(done.code, second.output.join('\n')).toBe(0);
    const s = summary(second.output);
    expect(s, second.output.join('\n')).toBeDefined();
    expect(s!.added).toBe(n - committed);
    expect(s!.duplicate).toBe(committed + 1);
    expect(s!.failed).toBe(0);
    expect(countBooks(ws.dbFile)).toBe(n);
    expect(integrity(ws.dbFile)).toBe('ok');

    const report = await checkStore(ws.dbFile, ws.storage);
    expect(report.incomplete).toEqual([]);
    // the rerun itself left nothing behind: the cleanup found only what the killed run left
    expect(report.cleanup).toEqual({ expiredUploads: 0, orphans: 0, temp: crashLeftovers, failures: [] });
    expect(report.orphansLeft).toEqual([]);
    recordFigures('import-crash', {
      inputs: n + 1,
      distinct: n,
      killedAfter: committed,
      crashLeftovers,
      secondRun: s,
    });
    console.log(
      '[import-crash]',
      JSON.stringify({ distinct: n, killedAfter: committed, crashLeftovers, secondRun: s }),
    );
  }, 600_000);
});
