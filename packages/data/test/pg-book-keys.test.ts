import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bookSearchColumns,
  type DbConfig,
  type DbHandle,
  deleteBook,
  insertBook,
  listBooksAdmin,
  updateBook,
} from '../src/index.js';
import { sampleBook, testDialects, testMigrator } from '../src/testing/index.js';

// On PostgreSQL the admin list's title and author filters read book_keys (migration
// 2026-11-27T1800-book-keys), which triggers on books keep: it must hold exactly each book's keys after
// every kind of write, or a filter would find a book by its old title or miss a new one.
const postgres = (await testDialects()).find((d) => d.name === 'postgres');

describe.skipIf(!postgres)('book_keys on PostgreSQL', () => {
  let h: DbHandle & { config: DbConfig };
  beforeEach(async () => {
    h = await postgres!.create();
  });
  afterEach(async () => h.destroy());

  /** Books without their keys, keys without their book, and keys unlike their book's. */
  async function differences() {
    return (
      await sql<{ book: number | null; kept: number | null }>`select b.id as book, k.id as kept
        from books b full join book_keys k on k.id = b.id
        where b.id is null or k.id is null or k.title_key <> b.title_key or k.author_key <> b.author_key`.execute(
        h.db,
      )
    ).rows;
  }

  const keysOf = async (id: number) =>
    h.db.selectFrom('book_keys').select(['title_key', 'author_key']).where('id', '=', id).executeTakeFirst();

  it("hold each book's keys through inserts, edits and deletes", async () => {
    const dune = await insertBook(h.db, sampleBook({ title: 'Dune Messiah', author: 'Frank Herbert' }), []);
    // full width: the key is the NFKC text, lowered, its spaces swapped
    const emma = await insertBook(h.db, sampleBook({ title: 'Ｅｍｍａ', author: 'Jane Austen' }), []);
    expect(await keysOf(dune.id)).toEqual({ title_key: 'duneʬmessiah', author_key: 'frankʬherbert' });
    expect(await keysOf(emma.id)).toEqual({ title_key: 'emma', author_key: 'janeʬausten' });

    await updateBook(h.db, dune.file_name, { title: 'Children of Dune' });
    await updateBook(h.db, emma.file_name, { author: 'J. Austen', selected: 1 });
    expect(await keysOf(dune.id)).toEqual({ title_key: 'childrenʬofʬdune', author_key: 'frankʬherbert' });
    expect(await keysOf(emma.id)).toEqual({ title_key: 'emma', author_key: 'j.ʬausten' });
    expect(await differences()).toEqual([]);

    await deleteBook(h.db, dune.file_name);
    expect(await keysOf(dune.id)).toBeUndefined();
    expect(await differences()).toEqual([]);
  });

  it('a statement writing many books writes all their keys', async () => {
    const now = Date.now();
    const rows = Array.from({ length: 40 }, (_, i) => {
      const b = sampleBook({ title: `Volume ${i}`, author: `Author ${i % 3}` });
      return { ...b, pos: i + 1, ...bookSearchColumns(b), created_at: now, updated_at: now };
    });
    await h.db.insertInto('books').values(rows).execute();
    const kept = await h.db
      .selectFrom('book_keys')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(kept?.n)).toBe(40);
    await sql`update books set title = title || ' II', title_nfkc = null where id % 2 = 0`.execute(h.db);
    await sql`update books set author = 'Anon' where id % 5 = 0`.execute(h.db);
    expect(await differences()).toEqual([]);
    const renamed = await sql<{
      n: number;
    }>`select count(*) as n from book_keys where title_key like '%ʬii'`.execute(h.db);
    expect(Number(renamed.rows[0]!.n)).toBe(20);
  });

  it('an edit that leaves the keys alone leaves their row alone', async () => {
    const book = await insertBook(h.db, sampleBook({ title: 'Persuasion' }), []);
    const version = async () =>
      (await sql<{ v: string }>`select xmin::text as v from book_keys where id = ${book.id}`.execute(h.db))
        .rows[0]?.v;
    const before = await version();
    await updateBook(h.db, book.file_name, { selected: 1, description: 'a novel' });
    expect(await version()).toBe(before);
    await updateBook(h.db, book.file_name, { title: 'Persuasion (1817)' });
    expect(await version()).not.toBe(before);
  });

  it('the migration gives the books already there their keys, and the filters read them', async () => {
    const schema = h.config.dialect === 'postgres' ? h.config.searchPath?.split(',')[0] : undefined;
    const m = testMigrator(h.db, schema);
    expect((await m.migrateTo('2026-11-27T1200-operator-notifications')).error).toBeUndefined();
    await insertBook(
      h.db,
      sampleBook({ title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' }),
      [],
    );
    await insertBook(h.db, sampleBook({ title: 'The Dispossessed', author: 'Ursula K. Le Guin' }), []);
    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect(await differences()).toEqual([]);
    const byId = { field: 'id', dir: 'desc' } as const;
    const page = { offset: 0, limit: 20 };
    const titles = async (filter: { title?: string; author?: string }) =>
      (await listBooksAdmin(h.db, filter, byId, page)).rows.map((r) => r.title);
    expect(await titles({ title: 'left hand' })).toEqual(['The Left Hand of Darkness']);
    expect(await titles({ author: 'le guin' })).toEqual(['The Dispossessed', 'The Left Hand of Darkness']);
  });
});
