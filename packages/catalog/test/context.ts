import { type Database, directWrites } from '@readlib/data';
import type { Kysely } from 'kysely';
import type { ReaderContext } from '../src/reader/reader-context.js';
import { ReaderKeeps } from '../src/reader/reader-keeps.js';
import { PublicUrls } from '../src/urls.js';

/** A reader context over a test database, as production has it, with the parts a test names instead. */
export function readerContext(db: Kysely<Database>, parts: Partial<ReaderContext> = {}): ReaderContext {
  return {
    db,
    urls: new PublicUrls('http://localhost:3000'),
    now: Date.now,
    writes: directWrites(db),
    keeps: new ReaderKeeps(),
    // an unhandled rejection, which fails the test that caused it
    reportError: (err) => {
      throw err;
    },
    ...parts,
  };
}

export { statementsOf } from '@readlib/data/testing';
