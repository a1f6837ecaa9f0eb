import { bookIdsInCategories, type Database, deleteBook, insertBook, updateBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReaderKeeps } from '../src/reader/reader-keeps.js';

const dialects = await testDialects();

/**
 * The kept newest lists of the categories, concatenated (a copy: the keeps change their lists in place),
 * read through a view of `db`; a counter counts from after the sync.
 */
async function newest(
  keeps: ReaderKeeps,
  db: Kysely<Database>,
  categoryIds: number[],
  per: number,
  counter?: { n: number },
) {
  const view = await keeps.sync(db, 0);
  if (counter) counter.n = 0;
  return (await view.newestListsOf(categoryIds, per)).flat();
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
describe.each(dialects)('newest books per category, kept, on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());

  const PER = 3;
  const CATEGORIES = [1, 2, 3];

  it('gives the fresh lists after each change of a random sequence', async () => {
    const memo = new ReaderKeeps();
    const files: string[] = [];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (let i = 0; i < 8; i++)
      files.push((await insertBook(h.db, sampleBook({ category_id: 1 + (i % 3) }), [])).file_name);
    for (let step = 0; step < 60; step++) {
      await memo.sync(h.db, 0);
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
    const memo = new ReaderKeeps();
    const books = [];
    for (let i = 0; i < 6; i++)
      books.push(await insertBook(h.db, sampleBook({ category_id: 1 + (i % 2) }), []));
    await memo.sync(h.db, 0);
    const before = await newest(memo, h.db, [1, 2], PER);
    await updateBook(h.db, books[4]!.file_name, { title: 'A new title' });
    await memo.sync(h.db, 0);
    const counter = queryCounter();
    expect(await newest(memo, h.db.withPlugin(counter), [1, 2], PER, counter)).toEqual(before);
    expect(counter.n).toBe(0);
    // a book added to category 2 enters its list at the top, still without a read
    const added = await insertBook(h.db, sampleBook({ category_id: 2 }), []);
    await memo.sync(h.db, 0);
    expect(await newest(memo, h.db.withPlugin(counter), [2], PER, counter)).toEqual(
      await bookIdsInCategories(h.db, [2], PER),
    );
    const reads = counter.n;
    expect((await newest(memo, h.db, [2], PER))[0]).toBe(added.id);
    expect(reads).toBe(0);
  });

  it('concurrent askers of a missing list share one read', async () => {
    const memo = new ReaderKeeps();
    for (let i = 0; i < 4; i++) await insertBook(h.db, sampleBook({ category_id: 1 }), []);
    await memo.sync(h.db, 0);
    const counter = queryCounter();
    const view = await memo.sync(h.db.withPlugin(counter), 0);
    counter.n = 0;
    const lists = await Promise.all(
      Array.from({ length: 8 }, async () => (await view.newestListsOf([1], PER)).flat()),
    );
    expect(new Set(lists.map((l) => l.join()))).toEqual(new Set([lists[0]!.join()]));
    expect(counter.n).toBe(1);
  });
});
