/**
 * The fields the admin book list sorts by (GET /book/list `sort`, as `+field` or `-field`;
 * decisions.md §4): the one list the `sort` parameter's description, the service's parser, the data
 * layer's column map and the console's sort options are made from. Plain data without TypeBox, so
 * front ends read it at run time (through `@readlib/contracts/routes` and the SDK).
 */
export const BOOK_LIST_SORT_FIELDS = [
  'id',
  'title',
  'author',
  'publisher',
  'language',
  'category',
  'fileName',
  'createdAt',
] as const;

export type BookListSortField = (typeof BOOK_LIST_SORT_FIELDS)[number];
