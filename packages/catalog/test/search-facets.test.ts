import { insertBook, updateBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PopularValuesMemo } from '../src/reader/popular-values.js';
import type { ReaderContext } from '../src/reader/reader-context.js';
import { ReaderKeeps } from '../src/reader/reader-keeps.js';
import { search } from '../src/reader/search.service.js';
import { drainWrites, readerContext } from './context.js';

const dialects = await testDialects();

// decisions.md §3 Search: `author` and `publisher` hold the distinct matching values, at most 10 each,
// most books first. The reader answers common keywords from the most frequent values it keeps and the
// rest from the index: both must give the index's answer, whichever path a keyword takes.
describe.each(dialects)('search facets from kept values on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => {
    // a search's line is written after its answer
    await drainWrites(h.db);
    await h.destroy();
  });

  /**
   * keeps holding the `max` most frequent values per field, or all of a field's values when it has at
   * most `whole`; none: nothing kept, the index answers
   */
  const keepsOf = (max?: number, whole = max) =>
    max === undefined
      ? new ReaderKeeps({ keep: false })
      : new ReaderKeeps({ popular: { max, minIntervalMs: 0, ...(whole === undefined ? {} : { whole }) } });
  const ctxOf = (keeps = keepsOf()): ReaderContext => readerContext(h.db, { keeps });
  /** the kept values of the keeps' current view */
  const popularOf = async (keeps: ReaderKeeps) => (await keeps.sync(h.db, Date.now())).popular;
  const facets = async (ctx: ReaderContext, keyword: string, page = 1) => {
    const r = await search(ctx, { keyword, page });
    return { author: r.author, publisher: r.publisher };
  };

  it('gives the index answer for common, rare, short, CJK and absent keywords', async () => {
    // 24 authors with 1-4 books each (ties included) and 6 publishers: a memo of 12 values per field
    // holds only the most frequent authors (10 of them Latin), so some keywords are answered by it and
    // some by the index
    for (let i = 0; i < 24; i++) {
      const author =
        i % 6 === 5 ? `王小明${i}` : `Author ${String.fromCharCode(65 + i)}${i % 3 === 0 ? ' Smith' : ''}`;
      for (let k = 0; k < 1 + (i % 4); k++)
        await insertBook(h.db, sampleBook({ author, publisher: `House ${i % 6} Press` }), []);
    }
    // full-width and accented letters: both indexes hold NFKC forms, and fold case
    for (const author of ['Ｍａｒｙ Ｓｈｅｌｌｅｙ', 'Émile Zola', 'Émile Zola'])
      await insertBook(h.db, sampleBook({ author, publisher: author }), []);
    // memos whose values are read (the first search starts the read, the index answers it)
    const small = keepsOf(12);
    const full = keepsOf(5_000);
    // a field of at most 100 values is kept whole, though more than 12
    const whole = keepsOf(12, 100);
    for (const memo of [small, full, whole]) {
      await facets(ctxOf(memo), 'warm-up');
      await (await popularOf(memo)).settled();
      expect((await popularOf(memo)).get(h.db, 'author')).toBeDefined();
    }
    const keywords = [
      'author',
      'AUTHOR',
      'smith',
      'r x',
      'au',
      'a',
      'x',
      '王',
      '小明',
      '王小明23',
      'house',
      'press 3',
      'zzz',
      '1',
      'ＭＡＲＹ',
      'mary',
      'ｍａ',
      'ma',
      'émile',
      'ÉMI',
      'é',
      'ｙ Ｓ',
    ];
    for (const keyword of keywords) {
      const byIndex = await facets(ctxOf(), keyword);
      expect(await facets(ctxOf(small), keyword), keyword).toEqual(byIndex);
      expect(await facets(ctxOf(full), keyword), keyword).toEqual(byIndex);
      expect(await facets(ctxOf(whole), keyword), keyword).toEqual(byIndex);
    }
    expect((await popularOf(small)).get(h.db, 'author')).toMatchObject({ complete: false });
    expect((await popularOf(whole)).get(h.db, 'author')).toMatchObject({ complete: true });
    expect((await popularOf(whole)).get(h.db, 'author')?.values).toHaveLength(26);
    // which path answered: with the value rows gone behind the memo's back (no catalogue version
    // move), the common keyword still fills its ten from memory and the rare one finds nothing
    // (page 2: the memo keeps whole answers of page 1 for the version, which would answer instead)
    expect((await facets(ctxOf(small), 'Author E')).author).toEqual([{ author: 'Author E' }]);
    await h.db.deleteFrom('book_values').execute();
    expect((await facets(ctxOf(small), 'author', 2)).author).toHaveLength(10);
    expect((await facets(ctxOf(small), 'house', 2)).publisher).toHaveLength(6);
    expect((await facets(ctxOf(small), 'Author E', 2)).author).toEqual([]);
    // a field kept whole answers the rare keyword from memory too
    expect((await facets(ctxOf(whole), 'Author E', 2)).author).toEqual([{ author: 'Author E' }]);
    // and the kept answer of page 1 is the one computed before, until the catalogue version moves
    expect((await facets(ctxOf(small), 'Author E')).author).toEqual([{ author: 'Author E' }]);
  });

  it('follows book writes made elsewhere at the next search, from the index until the memo has read', async () => {
    const memo = keepsOf(12);
    const a = await insertBook(h.db, sampleBook({ author: 'Ada Lovelace' }), []);
    await insertBook(h.db, sampleBook({ author: 'Ada Lovelace' }), []);
    expect((await facets(ctxOf(memo), 'lovelace')).author).toEqual([{ author: 'Ada Lovelace' }]);
    await (await popularOf(memo)).settled();
    await updateBook(h.db, a.file_name, { author: 'Ada King' });
    const both = [{ author: 'Ada King' }, { author: 'Ada Lovelace' }];
    expect((await facets(ctxOf(memo), 'ada')).author).toEqual(both);
    await (await popularOf(memo)).settled();
    expect((await popularOf(memo)).get(h.db, 'author')?.values.map((v) => v.value)).toEqual([
      'Ada King',
      'Ada Lovelace',
    ]);
    expect((await facets(ctxOf(memo), 'ada')).author).toEqual(both);
  });

  it('keeps them through edits that leave every author and publisher count as it was', async () => {
    const memo = keepsOf(12);
    const a = await insertBook(h.db, sampleBook({ author: 'Ada Lovelace' }), []);
    await facets(ctxOf(memo), 'lovelace');
    await (await popularOf(memo)).settled();
    const kept = (await popularOf(memo)).get(h.db, 'author');
    expect(kept?.values).toEqual([{ value: 'Ada Lovelace', n: 1 }]);
    await updateBook(h.db, a.file_name, { title: 'Notes on the Analytical Engine' });
    expect((await popularOf(memo)).get(h.db, 'author')).toBe(kept);
    await updateBook(h.db, a.file_name, { publisher: 'Taylor' });
    expect((await popularOf(memo)).get(h.db, 'author')).toBeUndefined();
  });

  it('never holds up a search to read them, and reads at most once per interval while versions move', async () => {
    await insertBook(h.db, sampleBook({ author: 'Ada Lovelace' }), []);
    let t = 0;
    const popular = new PopularValuesMemo(true, { max: 12, minIntervalMs: 1000, now: () => t });
    expect(popular.get(h.db, 'author')).toBeUndefined();
    await popular.settled();
    expect(popular.get(h.db, 'author')?.values).toEqual([{ value: 'Ada Lovelace', n: 1 }]);
    // the version moved (an import): nothing is used, and no read starts within the interval
    popular.reset();
    t = 999;
    expect(popular.get(h.db, 'author')).toBeUndefined();
    await popular.settled();
    expect(popular.get(h.db, 'author')).toBeUndefined();
    t = 1000;
    expect(popular.get(h.db, 'author')).toBeUndefined();
    await popular.settled();
    expect(popular.get(h.db, 'author')).toBeDefined();
    // a read that a version move overtook is dropped, not used
    popular.reset();
    t = 3000;
    popular.get(h.db, 'author');
    popular.reset();
    await popular.settled();
    expect(popular.get(h.db, 'author')).toBeUndefined();
  });
});
