import type { Static } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BookContents,
  BookDetail,
  BookSummary,
  ContentsEntry,
  ContentsNode,
  type ContentsTree,
  HomeData,
  HotSearchItem,
  OpenIdData,
  Reader,
  SearchResult,
  ShelfEntry,
  UserDayData,
} from '../src/index.js';
import { check, without } from './helpers.js';
import { bookDetail, bookSummary, contents, contentsTree, entry, reader } from './samples.js';

describe('spec §2.1 BookSummary', () => {
  it('accepts a summary', () => expect(check(BookSummary, bookSummary)).toBe(true));
  it.each(Object.keys(bookSummary))('requires %s', (key) => {
    expect(check(BookSummary, without(bookSummary, key as keyof typeof bookSummary))).toBe(false);
  });
  it('rejects a non-integer id or category and a numeric title', () => {
    expect(check(BookSummary, { ...bookSummary, id: 1.5 })).toBe(false);
    expect(check(BookSummary, { ...bookSummary, category: '1' })).toBe(false);
    expect(check(BookSummary, { ...bookSummary, title: 7 })).toBe(false);
  });
});

describe('spec §2.3 Reader', () => {
  it('accepts a reader with create_dt in ms', () => expect(check(Reader, reader)).toBe(true));
  it('rejects a string create_dt', () => expect(check(Reader, { ...reader, create_dt: '2019' })).toBe(false));
});

describe('spec §2.2 BookDetail', () => {
  it('accepts a detail record', () => expect(check(BookDetail, bookDetail)).toBe(true));
  it('is the summary plus detail fields', () => {
    expect(Object.keys(BookDetail.properties).slice(0, 11)).toEqual(Object.keys(BookSummary.properties));
    expect(check(BookDetail, bookSummary)).toBe(false);
  });
  it('accepts at most 10 readers', () => {
    expect(check(BookDetail, { ...bookDetail, readers: Array(10).fill(reader) })).toBe(true);
    expect(check(BookDetail, { ...bookDetail, readers: Array(11).fill(reader) })).toBe(false);
  });
  it('checks readers through the Reader reference', () => {
    expect(check(BookDetail, { ...bookDetail, readers: [{ nickName: 'x' }] })).toBe(false);
  });
  it('rankAvg is a string and the flags are booleans', () => {
    expect(check(BookDetail, { ...bookDetail, rankAvg: 3.67 })).toBe(false);
    expect(check(BookDetail, { ...bookDetail, private: 0 })).toBe(false);
  });
});

describe('spec §4.7 ContentsNode / BookContents', () => {
  it('accepts a flat entry', () => expect(check(ContentsEntry, entry('a', 0, '', 1))).toBe(true));
  it('validates a tree 3 levels deep', () => {
    for (const node of contentsTree) expect(check(ContentsNode, node)).toBe(true);
  });
  it('rejects a bad entry at the third level', () => {
    const [root] = structuredClone(contentsTree);
    const third = root?.children[0]?.children[0] as unknown as Record<string, unknown>;
    third.level = 'deep';
    expect(check(ContentsNode, root)).toBe(false);
  });
  it('requires children', () => expect(check(ContentsNode, entry('a', 0, '', 1))).toBe(false));
  it("types the tree through the named ContentsNode interface, the schema's own static type", () => {
    // checked by the package's typecheck: declaration emit prints a named recursive type, not `any[]`
    expectTypeOf<ContentsNode>().toEqualTypeOf<Static<typeof ContentsNode>>();
    expectTypeOf<ContentsTree>().toEqualTypeOf<ContentsNode[]>();
    expectTypeOf<BookContents['contentsTree']>().toEqualTypeOf<ContentsNode[]>();
    expectTypeOf<ContentsNode['children'][number]['children']>().toEqualTypeOf<ContentsNode[]>();
  });
  it('GET /book/contents is the detail plus contents and contentsTree', () => {
    expect(check(BookContents, { ...bookDetail, contents, contentsTree })).toBe(true);
    expect(check(BookContents, bookDetail)).toBe(false);
    // decisions.md §4 (verified against the original clients): the array of top-level entries
    expect(check(BookContents, { ...bookDetail, contents, contentsTree: { children: contentsTree } })).toBe(
      false,
    );
  });
});

describe('spec §2.4 ShelfEntry', () => {
  it('accepts a shelf entry', () => {
    expect(check(ShelfEntry, { ...bookSummary, openId: 'o1', date: 1_700_000_000_000 })).toBe(true);
  });
  it('requires openId and date', () =>
    expect(check(ShelfEntry, { ...bookSummary, openId: 'o1' })).toBe(false));
});

describe('spec §4.1 HomeData', () => {
  const home = {
    hotSearch: { num: 12, keyword: 'Agile' },
    shelf: [bookSummary],
    recommend: [bookSummary],
    freeRead: [],
    hotBook: [bookSummary],
    category: [{ category: 1, categoryText: 'ComputerScience', num: 56, cover: 'a.jpg', cover2: 'b.jpg' }],
    banner: { img: 'banner.jpg', title: 'Title', subTitle: 'Sub', url: 'https://example.com' },
    shelfCount: 1,
  };
  it('accepts the home page', () => expect(check(HomeData, home)).toBe(true));
  it('checks nested references', () => {
    expect(check(HomeData, { ...home, banner: { img: 'x' } })).toBe(false);
    expect(check(HomeData, { ...home, hotBook: [{ id: 1 }] })).toBe(false);
    expect(check(HomeData, { ...home, category: [{ category: 1 }] })).toBe(false);
  });
  it('requires shelfCount', () => expect(check(HomeData, without(home, 'shelfCount'))).toBe(false));
});

describe('spec §2.7 HotSearchItem', () => {
  it('accepts {title, fileName}', () =>
    expect(check(HotSearchItem, { title: 't', fileName: 'f' })).toBe(true));
});

describe('spec §2.8 SearchResult', () => {
  const result = {
    author: [{ author: 'Juan Garbajosa' }],
    category: [{ category: 1, categoryText: 'ComputerScience' }],
    publisher: [{ publisher: 'Springer' }],
    book: [bookSummary],
  };
  it('accepts the four groups', () => expect(check(SearchResult, result)).toBe(true));
  it('requires every group', () => expect(check(SearchResult, without(result, 'publisher'))).toBe(false));
  it('category items carry an integer id', () => {
    expect(check(SearchResult, { ...result, category: [{ category: 'x', categoryText: 'y' }] })).toBe(false);
  });
});

describe('spec §4.3 OpenIdData and §4.10 UserDayData', () => {
  it('accepts {openid, session_key}', () => {
    expect(check(OpenIdData, { openid: '2088|abc', session_key: 'token' })).toBe(true);
    expect(check(OpenIdData, { openid: 'x' })).toBe(false);
  });
  it('day is a positive integer', () => {
    expect(check(UserDayData, { day: 1 })).toBe(true);
    expect(check(UserDayData, { day: 0 })).toBe(false);
    expect(check(UserDayData, { day: 1.5 })).toBe(false);
  });
});
