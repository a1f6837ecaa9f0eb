import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BookRow,
  bookIdsWithValue,
  type DbHandle,
  insertBook,
  newestBookIds,
  popularValues,
} from '../src/index.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

// the pages of the OPDS feeds that no other reader list has
describe.each(dialects)('OPDS repository on $name', (dialect) => {
  let h: DbHandle;
  let books: BookRow[];
  beforeAll(async () => {
    h = await dialect.create();
    const specs = [
      { author: 'Li', publisher: 'North' },
      { author: 'Lin', publisher: 'North' },
      { author: 'Li', publisher: 'South' },
      { author: 'Oliver', publisher: 'North' },
      { author: 'Li', publisher: 'North' },
      { author: '', publisher: '' },
    ];
    books = [];
    for (const s of specs) books.push(await insertBook(h.db, sampleBook(s), []));
  });
  afterAll(async () => h.destroy());

  it('newestBookIds pages the catalogue newest first, each book once', async () => {
    const ids = books.map((b) => b.id).reverse();
    expect(await newestBookIds(h.db, { offset: 0, limit: 4 })).toEqual(ids.slice(0, 4));
    expect(await newestBookIds(h.db, { offset: 4, limit: 4 })).toEqual(ids.slice(4));
    expect(await newestBookIds(h.db, { offset: 8, limit: 4 })).toEqual([]);
  });

  it('bookIdsWithValue matches the value exactly (Li is not Lin or Oliver), in id order', async () => {
    const li = books.filter((b) => b.author === 'Li').map((b) => b.id);
    expect(await bookIdsWithValue(h.db, 'author', 'Li', { offset: 0, limit: 10 })).toEqual(li);
    expect(await bookIdsWithValue(h.db, 'author', 'Li', { offset: 1, limit: 1 })).toEqual([li[1]]);
    expect(await bookIdsWithValue(h.db, 'author', 'li', { offset: 0, limit: 10 })).toEqual([]);
    const north = books.filter((b) => b.publisher === 'North').map((b) => b.id);
    expect(await bookIdsWithValue(h.db, 'publisher', 'North', { offset: 0, limit: 10 })).toEqual(north);
  });

  it('popularValues pages the values most books first, ties by value, without empty values', async () => {
    expect(await popularValues(h.db, 'author', 10)).toEqual([
      { value: 'Li', n: 3 },
      { value: 'Lin', n: 1 },
      { value: 'Oliver', n: 1 },
    ]);
    expect(await popularValues(h.db, 'author', 1, 1)).toEqual([{ value: 'Lin', n: 1 }]);
    expect(await popularValues(h.db, 'publisher', 5, 1)).toEqual([{ value: 'South', n: 1 }]);
    expect(await popularValues(h.db, 'publisher', 5, 2)).toEqual([]);
  });
});
