import { BOOK_LIST_SORT_FIELDS, type BookListQuery, type BookListSortField } from '@readlib/sdk';
import type { LocationQuery, LocationQueryRaw } from 'vue-router';

export interface ListState {
  title: string;
  author: string;
  category: string;
  field: BookListSortField;
  descending: boolean;
  page: number;
  pageSize: number;
}

export const PAGE_SIZES = [10, 20, 50, 100];
const DEFAULTS: ListState = {
  title: '',
  author: '',
  category: '',
  field: 'id',
  descending: true,
  page: 1,
  pageSize: 20,
};

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const positive = (v: unknown, fallback: number) => {
  const n = Number(text(v));
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** The list's state from the page's URL (so a reload or a return after login shows the same page). */
export function stateFromQuery(query: LocationQuery): ListState {
  const sort = text(query.sort);
  const field = sort.replace(/^[+-]/, '');
  const known = (BOOK_LIST_SORT_FIELDS as readonly string[]).includes(field);
  const size = positive(query.pageSize, DEFAULTS.pageSize);
  return {
    title: text(query.title),
    author: text(query.author),
    category: text(query.category),
    field: known ? (field as BookListSortField) : DEFAULTS.field,
    descending: known ? sort.startsWith('-') : DEFAULTS.descending,
    page: positive(query.page, 1),
    pageSize: PAGE_SIZES.includes(size) ? size : DEFAULTS.pageSize,
  };
}

const sortOf = (s: ListState) => `${s.descending ? '-' : '+'}${s.field}` as const;

/** The URL query of a state, without the defaults. */
export function queryFromState(s: ListState): LocationQueryRaw {
  const query: LocationQueryRaw = {};
  if (s.title) query.title = s.title;
  if (s.author) query.author = s.author;
  if (s.category) query.category = s.category;
  if (s.field !== DEFAULTS.field || s.descending !== DEFAULTS.descending) query.sort = sortOf(s);
  if (s.page !== 1) query.page = String(s.page);
  if (s.pageSize !== DEFAULTS.pageSize) query.pageSize = String(s.pageSize);
  return query;
}

/** The admin list request of a state (empty filters left out). */
export function listRequest(s: ListState): BookListQuery {
  return {
    page: s.page,
    pageSize: s.pageSize,
    sort: sortOf(s),
    ...(s.title.trim() ? { title: s.title.trim() } : {}),
    ...(s.author.trim() ? { author: s.author.trim() } : {}),
    ...(s.category ? { category: s.category } : {}),
  };
}
