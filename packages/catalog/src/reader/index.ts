export * from './book.service.js';
export { BookCategories } from './book-categories.js';
export { CatalogMemo } from './catalog-memo.js';
export { CommitMemo } from './commit-memo.js';
export * from './home.service.js';
export {
  KEPT_BOOK_STATS,
  KEPT_SHELF_MAX_ENTRIES,
  KEPT_SHELVES,
  KeptReads,
  type ShelfEntryKey,
} from './kept-reads.js';
export type * from './opds/opds-feed.js';
export * from './opds/opds-feeds.service.js';
export { type PopularSet, PopularValuesMemo } from './popular-values.js';
export * from './reader-context.js';
export { sample } from './sample.js';
export * from './search.service.js';
export * from './shelf.service.js';
export * from './user.service.js';
export { type WarmUpReport, warmReader } from './warm-up.js';
