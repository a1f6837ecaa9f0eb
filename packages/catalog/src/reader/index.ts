export * from './book.service.js';
export { BookCategories } from './book-categories.js';
export { CatalogView, type KeptShelf, type ShelfEntryKey } from './catalog-view.js';
export * from './home.service.js';
export { topCategories } from './liked-categories.js';
export type * from './opds/opds-feed.js';
export * from './opds/opds-feeds.service.js';
export { type PopularSet, PopularValuesMemo } from './popular-values.js';
export * from './reader-context.js';
export { KEEP_BOUNDS, ReaderKeeps, type ReaderKeepsOptions } from './reader-keeps.js';
export {
  ACTIVITY_PERIOD_MS,
  AFFINITY_PERIOD_MS,
  READER_VERSIONS,
  type ReaderVersion,
  readerVersionSources,
} from './reader-versions.js';
export { sample } from './sample.js';
export * from './search.service.js';
export * from './shelf.service.js';
export * from './user.service.js';
export { type WarmUpReport, warmReader } from './warm-up.js';
