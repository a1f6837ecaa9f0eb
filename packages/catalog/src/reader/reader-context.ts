import { notFound } from '@readlib/contracts';
import { type Database, isForeignKeyViolation, type Writes } from '@readlib/data';
import type { Kysely } from 'kysely';
import type { PublicUrls } from '../urls.js';
import type { CatalogView } from './catalog-view.js';
import type { ReaderKeeps } from './reader-keeps.js';

/** What every reader service needs. Every collaborator is there in production and in tests alike. */
export interface ReaderContext {
  db: Kysely<Database>;
  urls: PublicUrls;
  /** epoch milliseconds; injected so day counting and 30-day windows are testable */
  now: () => number;
  /** how the small reader writes commit: grouped (WriteBatcher), or one by one (directWrites) */
  writes: Writes;
  /** what the process keeps, and the sync every request starts with */
  keeps: ReaderKeeps;
  /** told of a write that failed after its request was answered (a search's log line) */
  reportError: (err: unknown, what: string) => void;
}

/**
 * Brings the keeps to the versions committed now (changes made by any process are seen) and hands the
 * view every kept read goes through. Once per request, before reading anything kept.
 */
export function syncCatalog(ctx: ReaderContext): Promise<CatalogView> {
  return ctx.keeps.sync(ctx.db, ctx.now());
}

/**
 * Runs a write in the context's next group commit. Reader writes name a registered user, who is never
 * deleted, and a book, which an operator may delete after the request found it: that is the book not
 * found (404), not an internal error.
 */
export function write<T>(ctx: ReaderContext, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  return readerWrite(ctx.writes.run(work));
}

/** A write as a reader's request sees it: a book deleted since the request read it is not found. */
export async function readerWrite<T>(written: Promise<T>): Promise<T> {
  try {
    return await written;
  } catch (err) {
    if (isForeignKeyViolation(err)) throw notFound('book');
    throw err;
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Window of hot lists and the home hot search (decisions.md §3). */
export const HOT_WINDOW_MS = 30 * DAY_MS;
