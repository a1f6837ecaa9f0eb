import { bookIdsInCategories, type Database, deleteBook, insertBook, updateBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogMemo } from '../src/reader/catalog-memo.js';

const dialects = await testDialects();

/** The memo's newest lists of the categories, concatenated (a copy: the memo changes its lists in place). */
async function newest(memo: CatalogMemo, db: Kysely<Database>, categoryIds: number[], per: number) {
  return (await memo.newestListsOf(db, categoryIds, per)).flat();
}

/** Counts the queries a Kysely instance sends (the memo's reads are the only ones in these checks). */
function queryCounter(): KyselyPlugin & { n: number } {
  return {
    n: 0,
    transformQuery(args) {
      this.n++;
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
}

// Issue: performance. decisions.md §3 Home: `recommend` favours the categories a reader likes, drawn
// from the newest books of each. The reader keeps those lists across catalogue changes made anywhere
// and must give what a fresh read gives after every insert, edit, category move and delete.
describe.each(dialects)('newest books per category in the catalogue memo on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());

  const PER = 3;
  const CATEGORIES = [1, 2, 3];

  it('gives the fresh lists after each change of a random sequence', async () => {
    const memo = new CatalogMemo();
    const files: string[] = [];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (let i = 0; i < 8; i++)
      files.push((await insertBook(h.db, sampleBook({ category_id: 1 + (i % 3) }), [])).file_name);
    for (let step = 0; step < 60; step++) {
      await memo.sync(h.db);
      for (const c of CATEGORIES) {
        // ask for fewer and for as many as kept: both must be exact
        for (const per of [PER - 1, PER]) {
          const fresh = await bookIdsInCategories(h.db, [c], per);
          expect(await newest(memo, h.db, [c], per), `step ${step}, category ${c}`).toEqual(fresh);
        }
      }
      const op = rand(4);
      const at = rand(files.length);
      if (op === 0 || files.length < 3) {
        files.push((await insertBook(h.db, sampleBook({ category_id: 1 + rand(3) }), [])).file_name);
      } else if (op === 1) {
        await updateBook(h.db, files[at]!, { category_id: 1 + rand(3) });
      } else if (op === 2) {
        await updateBook(h.db, files[at]!, { title: `Edited ${step}` });
      } else {
        await deleteBook(h.db, files[at]!);
        files.splice(at, 1);
      }
    }
  });

  it('keeps the lists through edits that move no book between categories, without reading them again', async () => {
    const memo = new CatalogMemo();
    const books = [];
    for (let i = 0; i < 6; i++)
      books.push(await insertBook(h.db, sampleBook({ category_id: 1 + (i % 2) }), []));
    await memo.sync(h.db);
    const before = await newest(memo, h.db, [1, 2], PER);
    await updateBook(h.db, books[4]!.file_name, { title: 'A new title' });
    await memo.sync(h.db);
    const counter = queryCounter();
    expect(await newest(memo, h.db.withPlugin(counter), [1, 2], PER)).toEqual(before);
    expect(counter.n).toBe(0);
    // a book added to category 2 enters its list at the top, still without a read
    const added = await insertBook(h.db, sampleBook({ category_id: 2 }), []);
    await memo.sync(h.db);
    expect(await newest(memo, h.db.withPlugin(counter), [2], PER)).toEqual(
      await bookIdsInCategories(h.db, [2], PER),
    );
    expect((await newest(memo, h.db, [2], PER))[0]).toBe(added.id);
    expect(counter.n).toBe(0);
  });

  it('concurrent askers of a missing list share one read', async () => {
    const memo = new CatalogMemo();
    for (let i = 0; i < 4; i++) await insertBook(h.db, sampleBook({ category_id: 1 }), []);
    await memo.sync(h.db);
    const counter = queryCounter();
    const db = h.db.withPlugin(counter);
    const lists = await Promise.all(Array.from({ length: 8 }, () => newest(memo, db, [1], PER)));
    expect(new Set(lists.map((l) => l.join()))).toEqual(new Set([lists[0]!.join()]));
    expect(counter.n).toBe(1);
  });
});
