import { BOOK_LIST_SORT_FIELDS } from '@readlib/contracts';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en.messages';
import { zhCN } from '../i18n/zh-cn.messages';
import { listRequest, queryFromState, stateFromQuery } from './book-list.query';

describe("the book list's state in the page address", () => {
  it('defaults to the newest books first, 20 a page', () => {
    const state = stateFromQuery({});
    expect(state).toEqual({
      title: '',
      author: '',
      category: '',
      field: 'id',
      descending: true,
      page: 1,
      pageSize: 20,
    });
    expect(queryFromState(state)).toEqual({});
    expect(listRequest(state)).toEqual({ page: 1, pageSize: 20, sort: '-id' });
  });

  it('round-trips filters, sort, page and page size', () => {
    const query = {
      title: 'Alice',
      author: 'Carroll',
      category: 'Fiction',
      sort: '+title',
      page: '3',
      pageSize: '50',
    };
    const state = stateFromQuery(query);
    expect(state).toMatchObject({ field: 'title', descending: false, page: 3, pageSize: 50 });
    expect(queryFromState(state)).toEqual(query);
    expect(listRequest(state)).toEqual({
      page: 3,
      pageSize: 50,
      sort: '+title',
      title: 'Alice',
      author: 'Carroll',
      category: 'Fiction',
    });
  });

  it('ignores what it cannot use: an unknown sort field, a bad page, an unoffered page size', () => {
    expect(stateFromQuery({ sort: '-password', page: '-2', pageSize: '1000' })).toMatchObject({
      field: 'id',
      descending: true,
      page: 1,
      pageSize: 20,
    });
    expect(stateFromQuery({ page: ['2', '3'] }).page).toBe(1);
  });

  it('sends blank filters as no filter, trimmed ones as given', () => {
    const state = { ...stateFromQuery({}), title: '  ', author: ' Odd ' };
    expect(listRequest(state)).toEqual({ page: 1, pageSize: 20, sort: '-id', author: 'Odd' });
  });
});

describe('the sort fields the console offers', () => {
  it("are every field of the contracts' list, each with a label in both languages", () => {
    for (const field of BOOK_LIST_SORT_FIELDS) {
      for (const sign of ['+', '-']) {
        const state = stateFromQuery({ sort: `${sign}${field}` });
        expect(state.field).toBe(field);
        expect(listRequest(state).sort).toBe(`${sign}${field}`);
      }
    }
    const labelled = (fields: Record<string, string>) =>
      BOOK_LIST_SORT_FIELDS.filter((field) => fields[field]?.trim());
    expect(labelled(en.books.fields)).toEqual([...BOOK_LIST_SORT_FIELDS]);
    expect(labelled(zhCN.books.fields)).toEqual([...BOOK_LIST_SORT_FIELDS]);
  });
});
