import type { AdminBookDetail } from '@readlib/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type BookFormState, formOf } from './book-form.state';
import { keepDraft, reapply, takeDraft } from './edit-draft';

const book = {
  fileName: 'b_1',
  title: 'Alice',
  author: 'Lewis Carroll',
  publisher: 'Macmillan',
  language: 'en',
  rootFile: 'OEBPS/content.opf',
  cover: '',
  coverPath: '',
  filePath: 'b_1.epub',
  unzipPath: 'b_1',
  originalName: 'alice.epub',
  category: 3,
} as unknown as AdminBookDetail;

const edited = (
  form: BookFormState,
  text: Partial<BookFormState['text']>,
  rest: Partial<BookFormState> = {},
) => ({
  ...form,
  ...rest,
  text: { ...form.text, ...text },
});

describe('unsaved edits kept across an ended session', () => {
  it("the operator's changes go over the book as it is now; fields they did not touch keep its values", () => {
    const saved = formOf(book);
    const form = edited(saved, { title: 'Alice, edited', publisher: 'Typed Press' });
    // someone changed the author meanwhile
    const now = edited(formOf(book), { author: 'C. L. Dodgson' });
    expect(reapply({ saved, form }, now)?.text).toEqual({
      ...now.text,
      title: 'Alice, edited',
      publisher: 'Typed Press',
    });
  });

  it('a new category or another one is kept; nothing to put back is undefined', () => {
    const saved = formOf(book);
    expect(
      reapply({ saved, form: edited(saved, {}, { categoryMode: 'new', newCategory: 'Fairy tales' }) }, saved),
    ).toMatchObject({ categoryMode: 'new', newCategory: 'Fairy tales' });
    expect(reapply({ saved, form: edited(saved, {}, { categoryId: 7 }) }, saved)?.categoryId).toBe(7);
    expect(reapply({ saved, form: saved }, saved)).toBeUndefined();
    // the change is already what the service has
    const form = edited(saved, { title: 'Alice, edited' });
    expect(reapply({ saved, form }, form)).toBeUndefined();
  });

  describe('in the tab’s storage', () => {
    beforeEach(() => {
      const items = new Map<string, string>();
      vi.stubGlobal('sessionStorage', {
        getItem: (k: string) => items.get(k) ?? null,
        setItem: (k: string, v: string) => items.set(k, v),
        removeItem: (k: string) => items.delete(k),
      });
    });
    afterEach(() => vi.unstubAllGlobals());

    it("is that book's only, and taken once", () => {
      const saved = formOf(book);
      const form = edited(saved, { title: 'Alice, edited' });
      keepDraft('b_1', { saved, form });
      expect(takeDraft('b_2')).toBeUndefined();
      expect(takeDraft('b_1')).toEqual({ saved, form });
      expect(takeDraft('b_1')).toBeUndefined();
    });

    it('something else under the key is no draft', () => {
      sessionStorage.setItem('readlib.console.draft.b_1', '{"saved":1}');
      expect(takeDraft('b_1')).toBeUndefined();
      sessionStorage.setItem('readlib.console.draft.b_1', 'not json');
      expect(takeDraft('b_1')).toBeUndefined();
    });
  });
});
