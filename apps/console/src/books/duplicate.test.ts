import type { AdminBook, AdminBookDetail, BookListQuery, BookPage } from '@readlib/sdk';
import { describe, expect, it } from 'vitest';
import { formOf } from './book-form.state';
import { findDuplicate, identityOf } from './duplicate';

const book = (fileName: string, title: string, author: string, publisher: string): AdminBook => ({
  id: fileName,
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

/** A list answering with these books whatever it is asked, and the queries it was asked. */
function listOf(books: AdminBook[]) {
  const asked: BookListQuery[] = [];
  const list = async (query: BookListQuery): Promise<BookPage> => {
    asked.push(query);
    return { data: books, page: 1, pageSize: query.pageSize ?? 20, total: books.length };
  };
  return { list, asked };
}

describe('a book the catalogue already has', () => {
  it("is the create's identity: the form's values, the parsed ones where the form is empty", () => {
    const form = formOf(PARSED);
    form.text.title = '  Alice  ';
    form.text.author = '';
    expect(identityOf(form, PARSED)).toEqual({ title: 'Alice', author: 'Lewis Carroll', publisher: '' });
  });

  it('is found through the title and author filters, then compared exactly', async () => {
    const { list, asked } = listOf([
      book('b_1', 'Alice in Wonderland', 'Lewis Carroll', ''),
      book('b_2', 'Alice', 'Lewis Carroll', 'Macmillan'),
      book('b_3', 'Alice', 'Lewis Carroll', ''),
    ]);
    const found = await findDuplicate(list, { title: 'Alice', author: 'Lewis Carroll', publisher: '' });
    expect(found?.fileName).toBe('b_3');
    expect(asked).toEqual([{ title: 'Alice', author: 'Lewis Carroll', pageSize: 100 }]);
    expect(await findDuplicate(list, { title: 'Alice', author: 'Lewis Carroll', publisher: 'Penguin' })).toBe(
      undefined,
    );
  });

  it("asks within the filters' limits, and nothing without a title", async () => {
    const { list, asked } = listOf([]);
    await findDuplicate(list, { title: 'T'.repeat(300), author: '', publisher: '' });
    expect(asked[0]).toEqual({ title: 'T'.repeat(100), pageSize: 100 });
    expect(await findDuplicate(list, { title: '', author: 'x', publisher: '' })).toBeUndefined();
    expect(asked).toHaveLength(1);
  });
});
