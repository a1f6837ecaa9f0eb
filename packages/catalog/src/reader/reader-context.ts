import type { Database } from '@readlib/data';
import type { Kysely } from 'kysely';
import type { Cache } from '../cache/cache.js';
import type { PublicUrls } from '../urls.js';

/** What every reader service needs: the database, URL building and a clock tests can move. */
export interface ReaderContext {
  db: Kysely<Database>;
  urls: PublicUrls;
  /** epoch milliseconds; injected so day counting and 30-day windows are testable */
  now: () => number;
  /** derived catalogue data (category counts and covers); none: computed per request */
  cache?: Cache;
}

/** Cache keys of data that book writes (create, update, delete, import) change: invalidate this prefix. */
export const CATALOG_CACHE_PREFIX = 'catalog:';
/** Bound on staleness where the writer is another process without a shared cache (CLI import). */
export const CATALOG_CACHE_TTL_MS = 60_000;

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Window of hot lists and the home hot search (decisions.md §3). */
export const HOT_WINDOW_MS = 30 * DAY_MS;
