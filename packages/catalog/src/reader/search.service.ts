import {
  type BookSummary,
  hasSearchListFilter,
  type SearchListQuery,
  type SearchResult,
} from '@readlib/contracts';
import {
  logSearch,
  type SearchListFilter,
  searchBooks,
  searchCategories,
  searchFacet,
  searchList,
} from '@readlib/data';
import { toBookSummary } from '../book.mapper.js';
import { invalid } from '../errors.js';
import { paging } from '../paging.js';
import type { ReaderContext } from './reader-context.js';

const GROUP_MAX = 10;

export interface SearchInput {
  keyword: string;
  openId?: string | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

/** Keyword search over title, author, publisher and category name; every search is logged (decisions.md §3). */
export async function search(ctx: ReaderContext, input: SearchInput): Promise<SearchResult> {
  const keyword = input.keyword.trim();
  if (!keyword) throw invalid('keyword must not be blank');
  const [books, authors, publishers, categories] = await Promise.all([
    searchBooks(ctx.db, keyword, paging(input.page, input.pageSize)),
    searchFacet(ctx.db, keyword, 'author', GROUP_MAX),
    searchFacet(ctx.db, keyword, 'publisher', GROUP_MAX),
    searchCategories(ctx.db, keyword, GROUP_MAX),
    logSearch(ctx.db, keyword, input.openId ?? null, ctx.now()),
  ]);
  return {
    author: authors.map((a) => ({ author: a.value })),
    // an empty category would lead the reader to an empty list
    category: categories.filter((c) => c.n > 0).map((c) => ({ category: c.id, categoryText: c.name })),
    publisher: publishers.map((p) => ({ publisher: p.value })),
    book: books.map((b) => toBookSummary(b, ctx.urls)),
  };
}

/** Filters sent are combined with AND; blank ones count as not sent; none sent is error_code 2. */
export async function listBooks(ctx: ReaderContext, query: SearchListQuery): Promise<BookSummary[]> {
  if (!hasSearchListFilter(query))
    throw invalid('send at least one of publisher, author, category, categoryId');
  const filter: SearchListFilter = {};
  const given = (v: string | undefined) => v?.trim() || undefined;
  const publisher = given(query.publisher);
  const author = given(query.author);
  const category = given(query.category);
  const categoryId = given(query.categoryId);
  if (publisher) filter.publisher = publisher;
  if (author) filter.author = author;
  if (category) filter.category = category;
  if (categoryId) filter.categoryId = Number(categoryId);
  const rows = await searchList(ctx.db, filter, paging(query.page, query.pageSize));
  return rows.map((r) => toBookSummary(r, ctx.urls));
}
