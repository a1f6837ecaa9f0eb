import { describe, expect, it } from 'vitest';
import {
  OpdsCategoryQuery,
  OpdsMediaType,
  OpdsNameQuery,
  OpdsPageQuery,
  OpdsPublicationQuery,
  OpdsSearchQuery,
  type RouteSpec,
  readerRoutes,
} from '../src/index.js';
import { check, parseQuery } from './helpers.js';

// the query parameters of the OPDS feeds
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

  it('an author or publisher feed needs its name, as long as a book stores one (256 characters)', () => {
    expect(parseQuery(OpdsNameQuery, { name: '曹雪芹' })).toEqual({ name: '曹雪芹', page: 1 });
    expect(check(OpdsNameQuery, parseQuery(OpdsNameQuery, { name: '' }))).toBe(false);
    expect(check(OpdsNameQuery, parseQuery(OpdsNameQuery, { name: 'x'.repeat(256) }))).toBe(true);
    expect(check(OpdsNameQuery, parseQuery(OpdsNameQuery, { name: 'x'.repeat(257) }))).toBe(false);
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

describe('OPDS routes of the reader table', () => {
  const opds = Object.entries(readerRoutes as Record<string, RouteSpec>).filter(([, r]) =>
    r.url.startsWith('/opds'),
  );
  const mediaOf = (r: RouteSpec) => ('document' in r.reply ? r.reply.document : []);

  it('are public GETs answering a document of an OPDS media type', () => {
    expect(opds.length).toBe(23);
    for (const [id, r] of opds) {
      expect([id, r.method, r.tags, r.access ?? 'public']).toEqual([id, 'GET', ['opds'], 'public']);
      expect(Object.values(OpdsMediaType), id).toEqual(expect.arrayContaining([...mediaOf(r)]));
      expect(mediaOf(r).length, id).toBe(1);
    }
  });

  it('every OPDS 1.2 route but the OpenSearch description has its OPDS 2.0 twin, taking the same query', () => {
    const byUrl = new Map(opds.map(([, r]) => [r.url, r]));
    for (const [id, r] of opds) {
      if (r.url.startsWith('/opds/v2') || id === 'getOpdsSearchDescription') continue;
      const twin = byUrl.get(r.url.replace('/opds', '/opds/v2'));
      expect(twin, id).toBeDefined();
      expect(twin!.querystring, id).toBe(r.querystring);
      expect(mediaOf(twin!)[0], id).toMatch(/^application\/opds(-publication)?\+json$/);
    }
  });
});
