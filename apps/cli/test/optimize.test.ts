import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, insertBook, SEARCH_INDEXES } from '@readlib/data';
import { sampleBook } from '@readlib/data/testing';
import { makeEpub } from '@readlib/epub/testing';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPTIMIZE_AFTER_ADDED } from '../src/commands/optimize.command.js';
import { runCli } from './run-cli.js';

// Issue: performance — `pnpm cli optimize` merges the search indexes (one segment each), as a bulk
// import of 100 books or more does at its end.
describe('pnpm cli optimize', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-optimize-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('merges every search index and says which, in how long', async () => {
    expect((await runCli(dir, ['migrate'])).code).toBe(0);
    const h = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    const segments = async () =>
      Number(
        (await sql<{ n: number }>`select count(distinct segid) as n from book_title_fts_idx`.execute(h.db))
          .rows[0]?.n,
      );
    try {
      for (let i = 0; i < 5; i++) await insertBook(h.db, sampleBook({ title: `Tide ${i}` }), []);
      expect(await segments()).toBeGreaterThan(1);
      const { code, out } = await runCli(dir, ['optimize']);
      expect(code).toBe(0);
      expect(out).toMatch(
        new RegExp(`^search indexes merged in \\d+\\.\\d s: ${SEARCH_INDEXES.join(', ')}$`),
      );
      expect(await segments()).toBe(1);
    } finally {
      await h.destroy();
    }
  }, 60_000);

  it('an import that adds 100 books or more merges them at its end; a smaller one does not', async () => {
    const epubs = (n: number, from: number) => {
      const folder = join(dir, `epubs-${from}`);
      mkdirSync(folder);
      for (let i = from; i < from + n; i++)
        writeFileSync(
          join(folder, `b${i}.epub`),
          makeEpub({ title: `Harbour ${i}`, identifier: `urn:t:${i}` }),
        );
      return folder;
    };
    const few = await runCli(dir, ['import', epubs(3, 0)]);
    expect(few.code).toBe(0);
    expect(few.out).toMatch(/3 added/);
    expect(few.out).not.toMatch(/search indexes merged/);
    const bulk = await runCli(dir, ['import', epubs(OPTIMIZE_AFTER_ADDED, 3)]);
    expect(bulk.code).toBe(0);
    expect(bulk.out).toMatch(new RegExp(`${OPTIMIZE_AFTER_ADDED} added`));
    expect(bulk.out).toMatch(/search indexes merged in \d+\.\d s: book_fts, /);
  }, 120_000);
});
