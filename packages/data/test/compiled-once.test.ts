import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledOnce } from '../src/compiled-once.js';
import { type DbHandle, insertBook } from '../src/index.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

// Issue: performance. Hot reader queries are built once and bound per call: they must answer exactly
// what the same query built each time answers, whatever the order of the arguments in the SQL.
describe.each(dialects)('compiledOnce on $name', (dialect) => {
  let h: DbHandle;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());

  it('binds the arguments of each call where the first call put its markers', async () => {
    const books = [];
    for (const category_id of [1, 2, 2, 3])
      books.push(await insertBook(h.db, sampleBook({ category_id }), []));
    // the SQL holds the arguments in another order than the call, plus a constant of its own
    const find = compiledOnce((db, maxId: number, categoryId: number) =>
      db
        .selectFrom('books')
        .select(['id', 'title'])
        .where('category_id', '=', categoryId)
        .where('id', '<=', maxId)
        .where('title', '<>', 'never a title')
        .orderBy('id'),
    );
    for (const [maxId, categoryId] of [
      [books[3]!.id, 2],
      [books[1]!.id, 2],
      [books[3]!.id, 3],
      [0, 1],
    ] as const) {
      const built = await h.db
        .selectFrom('books')
        .select(['id', 'title'])
        .where('category_id', '=', categoryId)
        .where('id', '<=', maxId)
        .orderBy('id')
        .execute();
      expect(await find(h.db, maxId, categoryId)).toEqual(built);
    }
    expect((await find(h.db, books[3]!.id, 2)).map((r) => r.id)).toEqual([books[1]!.id, books[2]!.id]);
  });

  it('binds list arguments as `in` lists, one compiled shape per length', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await insertBook(h.db, sampleBook(), [])).id);
    const titles = compiledOnce((db, wanted: readonly number[], notTitle: string) =>
      db
        .selectFrom('books')
        .select('id')
        .where('id', 'in', wanted)
        .where('title', '<>', notTitle)
        .orderBy('id'),
    );
    for (const wanted of [[ids[0]!], [ids[4]!, ids[1]!], [ids[2]!, ids[3]!], [ids[0]!, ids[1]!, -1]]) {
      const expected = ids.filter((id) => wanted.includes(id));
      expect((await titles(h.db, wanted, 'x')).map((r) => r.id)).toEqual(expected);
    }
  });

  it('works inside a transaction', async () => {
    const book = await insertBook(h.db, sampleBook(), []);
    const title = compiledOnce((db, id: number) =>
      db.selectFrom('books').select('title').where('id', '=', id),
    );
    const inside = await h.db.transaction().execute((trx) => title(trx, book.id));
    expect(inside).toEqual([{ title: book.title }]);
  });

  it('refuses a query that does not bind each argument exactly once', async () => {
    const unused = compiledOnce((db, _id: number) => db.selectFrom('books').select('id'));
    await expect(unused(h.db, 1)).rejects.toThrow(/each argument must become one bound parameter/);
    const twice = compiledOnce((db, id: number) =>
      db.selectFrom('books').select('id').where('id', '=', id).where('pos', '=', id),
    );
    await expect(twice(h.db, 1)).rejects.toThrow(/each argument must become one bound parameter/);
    // a list whose length the SQL depends on (here: only its first element is bound)
    const first = compiledOnce((db, ids: readonly number[]) =>
      db.selectFrom('books').select('id').where('id', '=', ids[0]!),
    );
    await expect(first(h.db, [1, 2])).rejects.toThrow(/each argument must become one bound parameter/);
  });
});
