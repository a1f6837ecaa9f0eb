import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REAL_EPUB_DIR } from '../src/demo/demo-catalogue.js';
import { runCli } from './run-cli.js';

// README: `pnpm cli import ... [--category <name>]`. The value is resolved once, before any
// book: a blank value (`""` included) is a usage error, an unknown id does not fail every book, and a
// category named 2024 can be chosen.
describe('pnpm cli import --category', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-import-category-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const alice = join(REAL_EPUB_DIR, 'alice.epub');
  const categoryOfBooks = async () => {
    const h = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    try {
      const rows = await h.db
        .selectFrom('books')
        .innerJoin('categories', 'categories.id', 'books.category_id')
        .select(['categories.id', 'categories.name'])
        .execute();
      return rows.map((r) => `${r.id}:${r.name}`);
    } finally {
      await h.destroy();
    }
  };

  it('a blank or empty value is a usage error (exit 2) and imports nothing', async () => {
    for (const value of ['', '   ']) {
      const { code, out } = await runCli(dir, ['import', alice, '--category', value]);
      expect([code, out], JSON.stringify(value)).toEqual([2, expect.stringMatching(/--category needs/)]);
    }
    expect(await categoryOfBooks()).toEqual([]);
  }, 60_000);

  it('an id names its category; a number that is no id is a name', async () => {
    expect((await runCli(dir, ['import', alice, '--category', '11'])).code).toBe(0);
    expect(await categoryOfBooks()).toEqual(['11:Literature']);
    rmSync(dir, { recursive: true, force: true });
    const { code } = await runCli(dir, ['import', alice, '--category', '2024']);
    expect(code).toBe(0);
    expect(await categoryOfBooks()).toEqual([expect.stringMatching(/^\d+:2024$/)]);
  }, 60_000);
});
