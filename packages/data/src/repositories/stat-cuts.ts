import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';

type Db = Kysely<Database> | Transaction<Database>;

/*
 * stat_cuts rows mark how far a maintained count has got through a log: the recent-window cuts of
 * views and searches (activity-stats) and the daily roll-up of views (view-days).
 */

/**
 * A cut's position (epoch ms), undefined without its row. `lock`, inside a write transaction: on
 * PostgreSQL the row is share-locked, so a concurrent move (lockCut) waits for that transaction.
 */
export async function readCut(db: Db, name: string, lock = false): Promise<number | undefined> {
  return (await readDayCut(db, name, lock))?.upto;
}

/**
 * Takes a cut to move it, as a transaction's first statement: a write, so SQLite's write lock and
 * PostgreSQL's row lock are held from here on. Undefined without its row.
 */
export async function lockCut(trx: Transaction<Database>, name: string): Promise<number | undefined> {
  return (await lockDayCut(trx, name))?.upto;
}

/** A cut with the UTC offset (ms east) of the days its counts are keyed by (the view_days roll-up). */
export interface DayCut {
  upto: number;
  utcOffsetMs: number;
}

const toDayCut = (row: { upto: number; utc_offset_ms: number }): DayCut => ({
  upto: Number(row.upto),
  utcOffsetMs: Number(row.utc_offset_ms),
});

/** A cut with its offset, read as readCut does: both from one row, so they always belong together. */
export async function readDayCut(db: Db, name: string, lock = false): Promise<DayCut | undefined> {
  let q = db.selectFrom('stat_cuts').select(['upto', 'utc_offset_ms']).where('name', '=', name);
  if (lock && dialectOf(db) === 'postgres') q = q.forShare();
  const row = await q.executeTakeFirst();
  return row ? toDayCut(row) : undefined;
}

/** A cut with its offset, taken as lockCut does. */
export async function lockDayCut(trx: Transaction<Database>, name: string): Promise<DayCut | undefined> {
  const row = await trx
    .updateTable('stat_cuts')
    .set({ upto: sql`upto` })
    .where('name', '=', name)
    .returning(['upto', 'utc_offset_ms'])
    .executeTakeFirst();
  return row ? toDayCut(row) : undefined;
}
