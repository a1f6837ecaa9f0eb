import { type Database, directWrites } from '@readlib/data';
import type { CompiledQuery, Kysely } from 'kysely';
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
    ...parts,
  };
}

/** The statements `work` runs on `db`. */
export async function statementsOf(db: Kysely<Database>, work: () => Promise<unknown>): Promise<string[]> {
  const executor = db.getExecutor() as unknown as { executeQuery: (q: CompiledQuery) => unknown };
  const original = executor.executeQuery;
  const sent: string[] = [];
  executor.executeQuery = function recorded(this: unknown, q: CompiledQuery) {
    sent.push(q.sql);
    return original.call(this, q);
  };
  try {
    await work();
  } finally {
    executor.executeQuery = original;
  }
  return sent;
}
