import { commitStamp, insertBook, saveShelf, upsertUser } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeptShelf } from '../src/reader/catalog-view.js';
import { KEEP_BOUNDS, ReaderKeeps } from '../src/reader/reader-keeps.js';

const dialects = await testDialects();

describe.each(dialects)('the reader keeps on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());

  const shelfOf = (n: number): KeptShelf => {
    const entries = Array.from({ length: n }, (_, i) => ({ book_id: i, created_at: i }));
    return { entries, tag: String(n) };
  };

  it('reuses a shelf until the next commit where the handle tells commits (SQLite), never on PostgreSQL without a commit listener', async () => {
    const keeps = new ReaderKeeps();
    let reads = 0;
    const read = async () => {
      reads++;
      return shelfOf(3);
    };
    await (await keeps.sync(h.db, 0)).shelf(1, read);
    await (await keeps.sync(h.db, 0)).shelf(1, read);
    const tells = commitStamp(h.db) !== undefined;
    expect(reads).toBe(tells ? 1 : 2);
    const b = await insertBook(h.db, sampleBook(), []);
    const u = await upsertUser(h.db, { openId: 'u' });
    await saveShelf(h.db, u.id, b.id);
    await (await keeps.sync(h.db, 0)).shelf(1, read);
    expect(reads).toBe(tells ? 2 : 3);
  });

  it(`keeps a shelf of up to ${KEEP_BOUNDS.shelfEntries} entries; a longer one is read every time`, async () => {
    const keeps = new ReaderKeeps();
    let reads = 0;
    const read = (n: number) => async () => {
      reads++;
      return shelfOf(n);
    };
    // within one request's view (no commit observed in between) on either dialect
    const view = await keeps.sync(h.db, 0);
    await view.shelf(1, read(KEEP_BOUNDS.shelfEntries));
    await view.shelf(1, read(KEEP_BOUNDS.shelfEntries));
    expect(reads).toBe(1);
    await view.shelf(2, read(KEEP_BOUNDS.shelfEntries + 1));
    await view.shelf(2, read(KEEP_BOUNDS.shelfEntries + 1));
    expect(reads).toBe(3);
  });

  it('keeping nothing (keep: false) reads everything every time', async () => {
    const keeps = new ReaderKeeps({ keep: false });
    const b = await insertBook(h.db, sampleBook(), []);
    const view = await keeps.sync(h.db, 0);
    let reads = 0;
    const read = async () => {
      reads++;
      return shelfOf(1);
    };
    await view.shelf(1, read);
    await view.shelf(1, read);
    await view.answer('k', async () => reads++);
    await view.answer('k', async () => reads++);
    expect(reads).toBe(4);
    expect(await view.booksByIds([b.id])).toHaveLength(1);
    expect((await keeps.sync(h.db, 0)).bookCount).toBe(1);
  });

  it('lists every keep with the versions it depends on, each version one the reader knows', () => {
    const keeps = new ReaderKeeps();
    const names = keeps.versions.keeps.map((k) => k.name);
    expect(new Set(names).size).toBe(names.length);
    for (const k of keeps.versions.keeps)
      for (const d of k.dependsOn) expect(keeps.versions.names).toContain(d);
    expect(names).toEqual(
      expect.arrayContaining([
        'book rows',
        'catalogue answers',
        'shelf entries',
        "readers' nicknames and avatars",
      ]),
    );
  });
});
