import type { AdminBook, AdminBookDetail } from '@readlib/sdk';
import { describe, expect, it } from 'vitest';
import { formOf } from './book-form.state';
import { type BookIdentity, findDuplicate, identityOf } from './duplicate';

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

/** GET /book/same as the admin API answers it (exact title, author and publisher), and what it was asked. */
function catalogue(books: AdminBook[]) {
  const asked: BookIdentity[] = [];
  const findSameBooks = async (q: BookIdentity) => {
    asked.push(q);
    return books.filter((b) => b.title === q.title && b.author === q.author && b.publisher === q.publisher);
  };
  return { findSameBooks, asked };
}

describe('a book the catalogue already has', () => {
  it("is the create's identity: the form's values, the parsed ones where the form is empty", () => {
    const form = formOf(PARSED);
    form.text.title = '  Alice  ';
    form.text.author = '';
    expect(identityOf(form, PARSED)).toEqual({ title: 'Alice', author: 'Lewis Carroll', publisher: '' });
  });

  it('is asked for once, with the identity the create would have, and found', async () => {
    const { findSameBooks, asked } = catalogue([
      book('b_1', 'Alice in Wonderland', 'Lewis Carroll', ''),
      book('b_2', 'Alice', 'Lewis Carroll', 'Macmillan'),
      book('b_3', 'Alice', 'Lewis Carroll', ''),
    ]);
    const identity = { title: 'Alice', author: 'Lewis Carroll', publisher: '' };
    expect(await findDuplicate(findSameBooks, identity)).toMatchObject({ fileName: 'b_3' });
    expect(asked).toEqual([identity]);
    expect(
      await findDuplicate(findSameBooks, { title: 'Alice', author: 'Lewis Carroll', publisher: 'Penguin' }),
    ).toBeUndefined();
  });

  it('is not asked for without a title (the create refuses one)', async () => {
    const { findSameBooks, asked } = catalogue([book('b_1', '', 'x', '')]);
    expect(await findDuplicate(findSameBooks, { title: '', author: 'x', publisher: '' })).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
