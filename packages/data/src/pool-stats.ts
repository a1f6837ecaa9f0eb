import type { DialectName } from './dialect.js';

export interface PoolStats {
  dialect: DialectName;
  /** open connections (SQLite: 2 while a file is open, a reader and a writer; 1 for `:memory:`) */
  total: number;
  /** idle connections in the pool (PostgreSQL only) */
  idle?: number;
  /** queries waiting for a connection (SQLite: for the writer, behind this process's writes or the lock) */
  waiting?: number;
}

// Kysely keeps its driver's pool private; createDb records how to read it, keyed by the Kysely instance,
// so the services can export pool gauges from the `db` they are given without a wider interface.
const readers = new WeakMap<object, () => PoolStats>();

export function trackPool(db: object, read: () => PoolStats): void {
  readers.set(db, read);
}

/** The pool of a database made by createDb; undefined for a Kysely built elsewhere. */
export function poolStats(db: object): PoolStats | undefined {
  return readers.get(db)?.();
}
