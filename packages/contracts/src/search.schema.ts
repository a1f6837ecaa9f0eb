import { type Static, Type } from '@sinclair/typebox';
import { BookSummary } from './book.schema.js';
import { MaxLength, optionalOpenIdParam, pageParam, pageSizeParam, ref, requiredString } from './fields.js';

/** Author group item of the search result (spec §2.8). */
export const SearchAuthor = Type.Object(
  { author: Type.String({ description: 'Matching author.' }) },
  { $id: 'SearchAuthor', description: 'Search result author (spec §2.8).' },
);
export interface SearchAuthor extends Static<typeof SearchAuthor> {}

/** Category group item of the search result (spec §2.8). */
export const SearchCategory = Type.Object(
  {
    category: Type.Integer({ description: 'Category id.' }),
    categoryText: Type.String({ description: 'Category name.' }),
  },
  { $id: 'SearchCategory', description: 'Search result category (spec §2.8).' },
);
export interface SearchCategory extends Static<typeof SearchCategory> {}

/** Publisher group item of the search result (spec §2.8). */
export const SearchPublisher = Type.Object(
  { publisher: Type.String({ description: 'Matching publisher.' }) },
  { $id: 'SearchPublisher', description: 'Search result publisher (spec §2.8).' },
);
export interface SearchPublisher extends Static<typeof SearchPublisher> {}

/** GET /book/search data (spec §4.5, decisions.md §3). */
export const SearchResult = Type.Object(
  {
    author: Type.Array(ref(SearchAuthor), {
      maxItems: 10,
      description: 'Distinct matching authors, most books first.',
    }),
    category: Type.Array(ref(SearchCategory), {
      maxItems: 10,
      description: 'Distinct matching categories, most books first.',
    }),
    publisher: Type.Array(ref(SearchPublisher), {
      maxItems: 10,
      description: 'Distinct matching publishers, most books first.',
    }),
    book: Type.Array(ref(BookSummary), { description: 'Matching books of the page, title matches first.' }),
  },
  { $id: 'SearchResult', description: 'Search result groups (spec §2.8).' },
);
export interface SearchResult extends Static<typeof SearchResult> {}

/** GET /book/search query (spec §4.5). */
export const SearchQuery = Type.Object(
  {
    keyword: requiredString(
      MaxLength.keyword,
      'Substring of title, author, publisher or category name (case-insensitive).',
    ),
    openId: optionalOpenIdParam('User identifier, logged with the search.'),
    page: Type.Optional(pageParam()),
    pageSize: Type.Optional(pageSizeParam()),
  },
  { $id: 'SearchQuery', description: 'Search query (spec §4.5).' },
);
export interface SearchQuery extends Static<typeof SearchQuery> {}

/** GET /book/search-list query (spec §4.6): at least one of publisher, author, category, categoryId. */
export const SearchListQuery = Type.Object(
  {
    publisher: Type.Optional(
      Type.String({ maxLength: MaxLength.filter, description: 'Publisher substring.' }),
    ),
    author: Type.Optional(Type.String({ maxLength: MaxLength.filter, description: 'Author substring.' })),
    category: Type.Optional(
      Type.String({ maxLength: MaxLength.filter, description: 'Category name (exact match).' }),
    ),
    categoryId: Type.Optional(
      // blank, like the other filters, counts as not sent (clients send every key of their form)
      Type.String({
        pattern: '^\\s*[0-9]*\\s*$',
        maxLength: 10,
        description: 'Category id, as a string of digits; blank counts as not sent.',
      }),
    ),
    page: Type.Optional(pageParam()),
    pageSize: Type.Optional(pageSizeParam()),
  },
  {
    $id: 'SearchListQuery',
    description: 'Book list query (spec §4.6). Filters combine with AND; none sent gives error_code 2.',
  },
);
export interface SearchListQuery extends Static<typeof SearchListQuery> {}

const searchListFilters = ['publisher', 'author', 'category', 'categoryId'] as const;

/** True when at least one search-list filter is sent and not blank (spec §4.6, §7.2). */
export function hasSearchListFilter(
  query: Partial<Pick<SearchListQuery, (typeof searchListFilters)[number]>>,
): boolean {
  return searchListFilters.some((key) => {
    const value = query[key];
    return typeof value === 'string' && value.trim().length > 0;
  });
}
