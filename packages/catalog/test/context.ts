import type { Database } from '@readlib/data';
import type { Kysely } from 'kysely';
import type { ReaderContext } from '../src/reader/reader-context.js';
import { PublicUrls } from '../src/urls.js';

/** A reader context over a test database: the parts a test names (memos, cache) beside the defaults. */
export function readerContext(db: Kysely<Database>, parts: Partial<ReaderContext> = {}): ReaderContext {
  return { db, urls: new PublicUrls('http://localhost:3000'), now: Date.now, ...parts };
}
