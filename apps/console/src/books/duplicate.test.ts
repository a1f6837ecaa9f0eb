import type { AdminBook, AdminBookDetail, BookListQuery, BookPage } from '@readlib/sdk';
import { describe, expect, it } from 'vitest';
import { formOf } from './book-form.state';
import { DUPLICATE_PAGES, findDuplicate, identityOf } from './duplicate';

let ids = 0;
const book = (fileName: string, title: string, author: string, publisher: string): AdminBook => ({
  id: String(++ids),
  fileName,
  title,
  author,
  publisher,
  language: 'en',
  category: 1,
  categoryText: 'Fiction',
  cover: '',
  rootFile: '',
});

const PARSED = {
  ...book('up_1', 'Alice', 'Lewis Carroll', ''),
  filePath: 'epub/up_1.epub',
  unzipPath: 'unzip/up_1',
  coverPath: '',
  originalName: 'alice.epub',
  contents: [],
  contentsTree: [],
} as AdminBookDetail;

/**
 * The list as the admin API serves it: title and author filters as case-insensitive substrings, sorted
 * by the asked field then id (default `-id`), pages of at most 100; and the queries it was asked.
 */
function catalogue(books: AdminBook[]) {
  const asked: BookListQuery[] = [];
  const list = async (query: BookListQuery): Promise<BookPage> => {
    asked.push(query);
    const has = (text: string, part?: string) => !part || text.toLowerCase().includes(part.toLowerCase());
    const sort = query.sort ?? '-id';
    const field = sort.replace(/^[+-]/, '') as 'id' | 'author';
    const sign = sort.startsWith('-') ? -1 : 1;
    const key = (b: AdminBook) => (field === 'id' ? Number(b.id) : b[field]);
    const matches = books
      .filter((b) => has(b.title, query.title) && has(b.author, query.author))
      .sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : Number(a.id) - Number(b.id)));
    const pageSize = Math.min(query.pageSize ?? 20, 100);
    const page = query.page ?? 1;
    return {
      data: matches.slice((page - 1) * pageSize, page * pageSize),
      page,
      pageSize,
      total: matches.length,
    };
  };
  return { list, asked };
}

/** `n` books whose titles contain `title`, by `author`, none the same book as `title` alone. */
const similar = (n: number, title: string, author: string) =>
  Array.from({ length: n }, (_, i) => book(`s_${title}_${i}`, `${title}, volume ${i + 1}`, author, ''));

describe('a book the catalogue already has', () => {
  it("is the create's identity: the form's values, the parsed ones where the form is empty", () => {
    const form = formOf(PARSED);
    form.text.title = '  Alice  ';
    form.text.author = '';
    expect(identityOf(form, PARSED)).toEqual({ title: 'Alice', author: 'Lewis Carroll', publisher: '' });
  });

  it('is found through the title and author filters, then compared exactly', async () => {
    const { list, asked } = catalogue([
      book('b_1', 'Alice in Wonderland', 'Lewis Carroll', ''),
      book('b_2', 'Alice', 'Lewis Carroll', 'Macmillan'),
      book('b_3', 'Alice', 'Lewis Carroll', ''),
    ]);
    const found = await findDuplicate(list, { title: 'Alice', author: 'Lewis Carroll', publisher: '' });
    expect(found).toMatchObject({ kind: 'found', book: { fileName: 'b_3' } });
    expect(asked).toEqual([{ title: 'Alice', author: 'Lewis Carroll', pageSize: 100, page: 1 }]);
    expect(
      await findDuplicate(list, { title: 'Alice', author: 'Lewis Carroll', publisher: 'Penguin' }),
    ).toEqual({ kind: 'none' });
  });

  it('is found past the first page of similar books: every page is compared', async () => {
    // the book already there is the oldest; 250 newer ones of the same author have the title in theirs
    const same = book('b_same', 'Poems', 'Anonymous', 'Folio');
    const { list, asked } = catalogue([same, ...similar(250, 'Poems', 'Anonymous')]);
    const found = await findDuplicate(list, { title: 'Poems', author: 'Anonymous', publisher: 'Folio' });
    expect(found).toMatchObject({ kind: 'found', book: { fileName: 'b_same' } });
    expect(asked.map((q) => q.page)).toEqual([1, 2, 3]);
  });

  it('without an author, only the books without one are compared (sorted first), then it stops', async () => {
    const same = book('b_same', 'Poems', '', '');
    const authored = Array.from({ length: 900 }, (_, i) =>
      book(`a_${i}`, `Poems ${i}`, `Author ${String(i).padStart(3, '0')}`, ''),
    );
    const { list, asked } = catalogue([...authored, ...similar(150, 'Poems', ''), same]);
    expect(await findDuplicate(list, { title: 'Poems', author: '', publisher: '' })).toMatchObject({
      kind: 'found',
      book: { fileName: 'b_same' },
    });
    expect(asked[0]).toEqual({ title: 'Poems', pageSize: 100, sort: '+author', page: 1 });
    // the same title with a publisher none has: 151 books without an author, two pages, not eleven
    asked.length = 0;
    expect(await findDuplicate(list, { title: 'Poems', author: '', publisher: 'Other' })).toEqual({
      kind: 'none',
    });
    expect(asked.map((q) => q.page)).toEqual([1, 2]);
  });

  it(`compares up to ${DUPLICATE_PAGES} pages; past that many it says so after the first`, async () => {
    const fits = catalogue(similar(DUPLICATE_PAGES * 100 - 50, 'Poems', 'Anonymous'));
    expect(await findDuplicate(fits.list, { title: 'Poems', author: 'Anonymous', publisher: '' })).toEqual({
      kind: 'none',
    });
    expect(fits.asked.map((q) => q.page)).toEqual(Array.from({ length: DUPLICATE_PAGES }, (_, i) => i + 1));

    const more = catalogue(similar(DUPLICATE_PAGES * 100 + 150, 'Poems', 'Anonymous'));
    expect(await findDuplicate(more.list, { title: 'Poems', author: 'Anonymous', publisher: '' })).toEqual({
      kind: 'unsure',
      similar: DUPLICATE_PAGES * 100 + 150,
      compared: 100,
    });
    expect(more.asked).toHaveLength(1);
    // the first page may settle it all the same
    const there = catalogue([
      ...similar(DUPLICATE_PAGES * 100 + 150, 'Poems', 'Anonymous'),
      book('b_new', 'Poems', 'Anonymous', ''),
    ]);
    expect(
      await findDuplicate(there.list, { title: 'Poems', author: 'Anonymous', publisher: '' }),
    ).toMatchObject({
      kind: 'found',
      book: { fileName: 'b_new' },
    });
  });

  it("asks within the filters' limits, and nothing without a title", async () => {
    const { list, asked } = catalogue([]);
    await findDuplicate(list, { title: 'T'.repeat(300), author: 'A'.repeat(300), publisher: '' });
    expect(asked[0]).toEqual({ title: 'T'.repeat(100), author: 'A'.repeat(100), pageSize: 100, page: 1 });
    expect(await findDuplicate(list, { title: '', author: 'x', publisher: '' })).toEqual({ kind: 'none' });
    expect(asked).toHaveLength(1);
  });
});
