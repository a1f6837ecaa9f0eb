import { notFound } from '@readlib/contracts';
import { type Database, isForeignKeyViolation, type WriteBatcher } from '@readlib/data';
import type { Kysely } from 'kysely';
import type { BoundedMap } from '../bounded-map.js';
import type { Cache } from '../cache/cache.js';
import type { PublicUrls } from '../urls.js';
import type { CatalogMemo } from './catalog-memo.js';
import type { KeptReads } from './kept-reads.js';

/** What every reader service needs: the database, URL building and a clock tests can move. */
export interface ReaderContext {
  db: Kysely<Database>;
  urls: PublicUrls;
  /** epoch milliseconds; injected so day counting and 30-day windows are testable */
  now: () => number;
  /** derived catalogue data (category counts and covers); none: computed per request */
  cache?: Cache;
  /** catalogue rows kept in memory, coherent through counters.catalog_version; none: read per request */
  catalog?: CatalogMemo;
  /** group commit of the small reader writes; none: each write is its own transaction */
  writes?: WriteBatcher;
  /** openId → id of registered users, kept once read; none: read per request */
  userIds?: BoundedMap<string, number>;
  /** shelves and book counts reused while nothing is committed; none: read per request */
  kept?: KeptReads;
}

/**
 * Runs a write in the context's next group commit, or alone when the context has no batcher. Reader
 * writes name a registered user, who is never deleted, and a book, which an operator may delete after
 * the request found it: that is the book not found (404), not an internal error (found by an audit).
 */
export async function write<T>(ctx: ReaderContext, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  try {
    return await (ctx.writes ? ctx.writes.run(work) : work(ctx.db));
  } catch (err) {
    if (isForeignKeyViolation(err)) throw notFound('book');
    throw err;
  }
}

/** Cache keys of data that book writes (create, update, delete, import) change: invalidate this prefix. */
export const CATALOG_CACHE_PREFIX = 'catalog:';
/**
 * How long catalogue-derived values stay cached at most. Not a staleness bound any more: a book write in
 * any process moves counters.catalog_version, and CatalogMemo.sync drops them on the next request.
 */
export const CATALOG_CACHE_TTL_MS = 60_000;

/**
 * How long activity rankings (most viewed books of the window, the well-rated pool, the top keyword)
 * are reused: they aggregate 30 days of activity, so a view or search shows in them within this time
 * instead of every home page re-reading them (~0.35 ms per home page at 100k books).
 */
export const ACTIVITY_CACHE_TTL_MS = 5_000;
/** How long a user's liked categories (personal recommendations) are reused after being computed. */
export const AFFINITY_CACHE_TTL_MS = 30_000;

/** `compute()` through the context's cache, or directly without one. */
export function cached<T>(
  ctx: ReaderContext,
  key: string,
  ttlMs: number,
  compute: () => Promise<T>,
): Promise<T> {
  return ctx.cache ? ctx.cache.wrap(key, ttlMs, compute) : compute();
}

/**
 * Brings the catalogue caches to the committed catalogue version (no-op without a memo). Resolves with
 * the commit stamp the request's kept reads are checked against (undefined: none, read everything).
 */
export function syncCatalog(ctx: ReaderContext): Promise<number | undefined> {
  return ctx.catalog ? ctx.catalog.sync(ctx.db, ctx.cache) : Promise.resolve(undefined);
}

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Window of hot lists and the home hot search (decisions.md §3). */
export const HOT_WINDOW_MS = 30 * DAY_MS;
