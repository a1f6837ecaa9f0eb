import { describe, expect, it } from 'vitest';
import {
  OpdsCategoryQuery,
  OpdsNameQuery,
  OpdsPageQuery,
  OpdsPublicationQuery,
  OpdsSearchQuery,
} from '../src/index.js';
import { check, parseQuery } from './helpers.js';

// issue #32: the query parameters of the OPDS feeds
describe('OPDS feed queries', () => {
  it('pages default to 1 and are positive integers', () => {
    expect(parseQuery(OpdsPageQuery, {})).toEqual({ page: 1 });
    expect(parseQuery(OpdsPageQuery, { page: '3' })).toEqual({ page: 3 });
    for (const page of ['0', '-1', 'two'])
      expect(check(OpdsPageQuery, parseQuery(OpdsPageQuery, { page })), page).toBe(false);
    expect(check(OpdsPageQuery, { page: 1.5 })).toBe(false);
  });

  it('a category feed needs a 32-bit category id', () => {
    expect(parseQuery(OpdsCategoryQuery, { id: '7' })).toEqual({ id: 7, page: 1 });
    expect(check(OpdsCategoryQuery, parseQuery(OpdsCategoryQuery, {}))).toBe(false);
    expect(check(OpdsCategoryQuery, parseQuery(OpdsCategoryQuery, { id: 'x' }))).toBe(false);
    expect(check(OpdsCategoryQuery, parseQuery(OpdsCategoryQuery, { id: '2147483648' }))).toBe(false);
  });

  it('an author or publisher feed needs its name, of at most 100 characters', () => {
    expect(parseQuery(OpdsNameQuery, { name: '曹雪芹' })).toEqual({ name: '曹雪芹', page: 1 });
    expect(check(OpdsNameQuery, parseQuery(OpdsNameQuery, { name: '' }))).toBe(false);
    expect(check(OpdsNameQuery, parseQuery(OpdsNameQuery, { name: 'x'.repeat(101) }))).toBe(false);
  });

  it('a search needs a query, as the reader search its keyword', () => {
    expect(parseQuery(OpdsSearchQuery, { query: '红', page: '2' })).toEqual({ query: '红', page: 2 });
    expect(check(OpdsSearchQuery, parseQuery(OpdsSearchQuery, {}))).toBe(false);
    expect(check(OpdsSearchQuery, parseQuery(OpdsSearchQuery, { query: 'x'.repeat(101) }))).toBe(false);
  });

  it('a publication is named by its fileName', () => {
    expect(check(OpdsPublicationQuery, { fileName: 'b_1' })).toBe(true);
    expect(check(OpdsPublicationQuery, {})).toBe(false);
    expect(check(OpdsPublicationQuery, { fileName: '' })).toBe(false);
  });
});
