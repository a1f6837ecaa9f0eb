import { describe, expect, it } from 'vitest';
import {
  ContentsQuery,
  DEFAULT_PLATFORM,
  DetailQuery,
  HomeQuery,
  hasSearchListFilter,
  OpenIdQuery,
  PayOpenIdQuery,
  RankSaveQuery,
  RegisterBody,
  SearchListQuery,
  SearchQuery,
  ShelfGetQuery,
  ShelfParam,
  UserDayQuery,
} from '../src/index.js';
import { readerRoutes } from '../src/routes/index.js';
import { check, parseQuery, withDefaults } from './helpers.js';

describe('spec §4.1 HomeQuery', () => {
  it('requires a non-empty openId', () => {
    expect(check(HomeQuery, { openId: 'o1' })).toBe(true);
    expect(check(HomeQuery, {})).toBe(false);
    expect(check(HomeQuery, { openId: '' })).toBe(false);
    expect(check(HomeQuery, { openId: 'x'.repeat(129) })).toBe(false);
  });
  it('tolerates extra query parameters', () => expect(check(HomeQuery, { openId: 'o1', t: '1' })).toBe(true));
});

describe('spec §4.5 SearchQuery', () => {
  it('applies page 1 and pageSize 20 by default (spec §8)', () => {
    expect(parseQuery(SearchQuery, { keyword: 'js' })).toEqual({ keyword: 'js', page: 1, pageSize: 20 });
  });
  it('converts query strings to integers', () => {
    const query = parseQuery(SearchQuery, { keyword: 'js', page: '3', pageSize: '100', openId: 'o1' });
    expect(query).toEqual({ keyword: 'js', page: 3, pageSize: 100, openId: 'o1' });
    expect(check(SearchQuery, query)).toBe(true);
  });
  it('requires a keyword of 1 to 100 characters', () => {
    expect(check(SearchQuery, { page: 1 })).toBe(false);
    expect(check(SearchQuery, { keyword: '' })).toBe(false);
    expect(check(SearchQuery, { keyword: '三体' })).toBe(true);
    expect(check(SearchQuery, { keyword: 'x'.repeat(101) })).toBe(false);
  });
  it.each([
    ['page 0', { page: 0 }],
    ['page -1', { page: -1 }],
    ['page 1.5', { page: 1.5 }],
    ['pageSize 0', { pageSize: 0 }],
    ['pageSize 2.5', { pageSize: 2.5 }],
  ])('rejects %s (decisions.md §3)', (_, bad) => {
    expect(check(SearchQuery, { keyword: 'js', ...bad })).toBe(false);
  });
  it('rejects a non-numeric page string after conversion', () => {
    expect(check(SearchQuery, parseQuery(SearchQuery, { keyword: 'js', page: 'two' }))).toBe(false);
    expect(check(SearchQuery, parseQuery(SearchQuery, { keyword: 'js', page: '0' }))).toBe(false);
  });
  it('accepts a pageSize over 100: decisions.md §3 caps it (served as 100) rather than refusing it', () => {
    expect(check(SearchQuery, parseQuery(SearchQuery, { keyword: 'js', pageSize: '101' }))).toBe(true);
    expect(check(SearchListQuery, { author: 'a', pageSize: 5000 })).toBe(true);
  });
});

describe('spec §4.6 SearchListQuery', () => {
  it('applies page defaults and accepts each filter', () => {
    expect(parseQuery(SearchListQuery, { author: 'Liu' })).toEqual({ author: 'Liu', page: 1, pageSize: 20 });
    for (const filter of [
      { publisher: 'p' },
      { author: 'a' },
      { category: 'History' },
      { categoryId: '12' },
    ]) {
      expect(check(SearchListQuery, filter)).toBe(true);
    }
  });
  it('categoryId is a string of digits', () => {
    expect(check(SearchListQuery, { categoryId: '1a' })).toBe(false);
    expect(check(SearchListQuery, { categoryId: 12 })).toBe(false);
  });
  it('rejects out-of-range paging', () => {
    expect(check(SearchListQuery, { author: 'a', page: 0 })).toBe(false);
    expect(check(SearchListQuery, { author: 'a', pageSize: 0 })).toBe(false);
  });
  it('hasSearchListFilter: at least one non-blank filter (spec §7.2)', () => {
    expect(hasSearchListFilter({})).toBe(false);
    expect(hasSearchListFilter({ author: '  ' })).toBe(false);
    expect(hasSearchListFilter({ page: 1, pageSize: 5 } as SearchListQuery)).toBe(false);
    expect(hasSearchListFilter({ publisher: 'p' })).toBe(true);
    expect(hasSearchListFilter({ categoryId: '3' })).toBe(true);
    expect(hasSearchListFilter({ category: 'History', author: '' })).toBe(true);
  });
});

describe('spec §4.7 DetailQuery and ContentsQuery', () => {
  it('fileName required, openId optional', () => {
    expect(check(DetailQuery, { fileName: 'f' })).toBe(true);
    expect(check(DetailQuery, { fileName: 'f', openId: 'o' })).toBe(true);
    expect(check(DetailQuery, { openId: 'o' })).toBe(false);
    expect(check(ContentsQuery, { fileName: 'f' })).toBe(true);
    expect(check(ContentsQuery, { fileName: '' })).toBe(false);
  });
});

describe('spec §4.8 shelf inputs', () => {
  it('ShelfGetQuery: openId required, fileName optional', () => {
    expect(check(ShelfGetQuery, { openId: 'o' })).toBe(true);
    expect(check(ShelfGetQuery, { openId: 'o', fileName: 'f' })).toBe(true);
    expect(check(ShelfGetQuery, { fileName: 'f' })).toBe(false);
  });
  it("the shelf writes' query (written in the route table): shelf string required, at most 2048 characters", () => {
    const ShelfMutateQuery = readerRoutes.saveShelf.querystring;
    expect(readerRoutes.removeShelf.querystring).toBe(ShelfMutateQuery);
    const shelf = encodeURIComponent(JSON.stringify({ openId: 'o', fileName: 'f' }));
    expect(check(ShelfMutateQuery, { shelf })).toBe(true);
    expect(check(ShelfMutateQuery, {})).toBe(false);
    expect(check(ShelfMutateQuery, { shelf: 'x'.repeat(2049) })).toBe(false);
  });
  it('ShelfParam: decoded JSON with openId and fileName (decisions.md §3)', () => {
    const decoded: unknown = JSON.parse(
      decodeURIComponent(encodeURIComponent('{"openId":"o","fileName":"f"}')),
    );
    expect(check(ShelfParam, decoded)).toBe(true);
    expect(check(ShelfParam, { openId: 'o', fileName: 'f', extra: 1 })).toBe(true);
    expect(check(ShelfParam, { openId: 'o' })).toBe(false);
    expect(check(ShelfParam, { openId: '', fileName: 'f' })).toBe(false);
    expect(check(ShelfParam, ['o', 'f'])).toBe(false);
    expect(check(ShelfParam, 'o')).toBe(false);
  });
});

describe('spec §4.9 RankSaveQuery', () => {
  it('rank is an integer 1 to 5 (decisions.md §3)', () => {
    for (const rank of [1, 3, 5])
      expect(check(RankSaveQuery, { fileName: 'f', openId: 'o', rank })).toBe(true);
    for (const rank of [0, 6, 2.5, -1]) {
      expect(check(RankSaveQuery, { fileName: 'f', openId: 'o', rank })).toBe(false);
    }
  });
  it('converts rank from the query string and requires all three', () => {
    const query = parseQuery(RankSaveQuery, { fileName: 'f', openId: 'o', rank: '4' });
    expect(query).toEqual({ fileName: 'f', openId: 'o', rank: 4 });
    expect(check(RankSaveQuery, { fileName: 'f', rank: 4 })).toBe(false);
    expect(check(RankSaveQuery, { fileName: 'f', openId: 'o' })).toBe(false);
  });
});

describe('spec §4.10 UserDayQuery and §4.3 login-code queries', () => {
  it('UserDayQuery requires openId', () => {
    expect(check(UserDayQuery, { openId: 'o' })).toBe(true);
    expect(check(UserDayQuery, {})).toBe(false);
  });
  it('OpenIdQuery requires appId, code and secret', () => {
    expect(check(OpenIdQuery, { appId: 'wx1', code: 'c', secret: 's' })).toBe(true);
    expect(check(OpenIdQuery, { appId: 'wx1', code: 'c' })).toBe(false);
    expect(check(OpenIdQuery, { appId: 'wx1', code: '', secret: 's' })).toBe(false);
  });
  it('PayOpenIdQuery requires appId and code', () => {
    expect(check(PayOpenIdQuery, { appId: '2021', code: 'c' })).toBe(true);
    expect(check(PayOpenIdQuery, { appId: '2021' })).toBe(false);
  });
});

describe('spec §4.4 RegisterBody', () => {
  const profile = {
    openId: 'o1',
    avatarUrl: 'https://example.com/a.png',
    nickName: 'Reader',
    gender: 1,
    country: 'China',
    province: 'Beijing',
    city: 'Beijing',
    language: 'zh_CN',
  };
  it('accepts a full profile', () =>
    expect(check(RegisterBody, { ...profile, platform: 'alipay' })).toBe(true));
  it("leaves absent fields absent: platform 'wx' and gender 0 are the first registration's defaults, and a later call keeps what it does not send (decisions.md §3)", () => {
    expect(withDefaults(RegisterBody, { openId: 'o1' })).toEqual({ openId: 'o1' });
    expect(withDefaults(RegisterBody, profile)).toEqual(profile);
    expect(RegisterBody.properties.platform.description).toContain(`"${DEFAULT_PLATFORM}"`);
  });
  it('requires openId', () => expect(check(RegisterBody, { nickName: 'n' })).toBe(false));
  it('gender is 0, 1 or 2', () => {
    for (const gender of [0, 1, 2]) expect(check(RegisterBody, { openId: 'o', gender })).toBe(true);
    for (const gender of [3, -1, 1.5, '1']) expect(check(RegisterBody, { openId: 'o', gender })).toBe(false);
  });
  it('bounds lengths and lists every field', () => {
    expect(check(RegisterBody, { openId: 'o', nickName: 'x'.repeat(65) })).toBe(false);
    expect(check(RegisterBody, { openId: 'o', avatarUrl: 'x'.repeat(1025) })).toBe(false);
    expect(check(RegisterBody, { openId: 'o', isAdmin: true })).toBe(false);
  });
});
