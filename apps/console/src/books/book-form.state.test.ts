import type { AdminBookDetail } from '@readlib/sdk';
import { describe, expect, it } from 'vitest';
import { createBody, formOf, updateBody } from './book-form.state';

const BOOK = {
  id: '7',
  fileName: 'b_1',
  title: 'Alice',
  author: 'Lewis Carroll',
  publisher: '',
  language: 'en',
  category: 3,
  categoryText: 'Fiction',
  cover: 'http://127.0.0.1:3000/res/img/b_1.png',
  rootFile: 'OEBPS/content.opf',
  filePath: 'epub/b_1.epub',
  unzipPath: 'unzip/b_1',
  coverPath: 'img/b_1.png',
  originalName: 'alice.epub',
  contents: [],
  contentsTree: [],
} satisfies AdminBookDetail;

describe('the book form: create and update bodies', () => {
  it('create sends the upload answer back as edited, empty fields left out, the category by id', () => {
    const form = formOf(BOOK);
    form.text.title = ' Alice in Wonderland ';
    expect(createBody('b_1', form)).toEqual({
      fileName: 'b_1',
      category: 3,
      title: 'Alice in Wonderland',
      author: 'Lewis Carroll',
      language: 'en',
      rootFile: 'OEBPS/content.opf',
      cover: 'http://127.0.0.1:3000/res/img/b_1.png',
      coverPath: 'img/b_1.png',
      filePath: 'epub/b_1.epub',
      unzipPath: 'unzip/b_1',
      originalName: 'alice.epub',
    });
  });

  it('a new category goes by name, and only when one is typed', () => {
    const form = formOf(BOOK);
    form.categoryMode = 'new';
    form.newCategory = '  Classics ';
    expect(createBody('b_1', form)).toMatchObject({ categoryText: 'Classics' });
    expect(createBody('b_1', form)).not.toHaveProperty('category');
    form.newCategory = ' ';
    expect(createBody('b_1', form)).not.toHaveProperty('categoryText');
  });

  it('update sends only what changed, and nothing when nothing did', () => {
    const before = formOf(BOOK);
    const after = formOf(BOOK);
    expect(updateBody('b_1', before, after)).toBeUndefined();
    after.text.author = 'C. L. Dodgson';
    after.categoryId = 4;
    expect(updateBody('b_1', before, after)).toEqual({
      fileName: 'b_1',
      author: 'C. L. Dodgson',
      category: 4,
    });
    after.categoryMode = 'new';
    after.newCategory = 'Nonsense';
    expect(updateBody('b_1', before, after)).toEqual({
      fileName: 'b_1',
      author: 'C. L. Dodgson',
      categoryText: 'Nonsense',
    });
  });
});
