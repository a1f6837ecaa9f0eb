import { type Database, directWrites, type Writes } from '@readlib/data';
import type { Kysely } from 'kysely';
import type { ReaderContext } from '../src/reader/reader-context.js';
import { ReaderKeeps } from '../src/reader/reader-keeps.js';
import { PublicUrls } from '../src/urls.js';

/** The writes of the contexts made over a database without writes of their own: one per database. */
const writesOf = new WeakMap<Kysely<Database>, Writes>();

function defaultWrites(db: Kysely<Database>): Writes {
  const kept = writesOf.get(db);
  if (kept) return kept;
  const writes = directWrites(db);
  writesOf.set(db, writes);
  return writes;
}

/**
 * Resolves once every write of the contexts made over `db` with the default writes has settled: a
 * search's line is written after its answer, so a test drains them before it closes the database.
 */
export function drainWrites(db: Kysely<Database>): Promise<void> {
  return defaultWrites(db).drain();
}

/** A reader context over a test database, as production has it, with the parts a test names instead. */
export function readerContext(db: Kysely<Database>, parts: Partial<ReaderContext> = {}): ReaderContext {
  return {
    db,
    urls: new PublicUrls('http://localhost:3000'),
    now: Date.now,
    writes: defaultWrites(db),
    keeps: new ReaderKeeps(),
    // an unhandled rejection, which fails the test that caused it
    reportError: (err) => {
      throw err;
    },
    ...parts,
  };
}

export { statementsOf } from '@readlib/data/testing';
