import type { Kysely } from 'kysely';
import type { Database } from '../database.js';

/** A second rating by the same user replaces the first (unique user_id, book_id). */
export async function saveRating(
  db: Kysely<Database>,
  userId: number,
  bookId: number,
  rank: number,
  now = Date.now(),
) {
  await db
    .insertInto('ratings')
    .values({ user_id: userId, book_id: bookId, rank, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'book_id']).doUpdateSet({ rank, updated_at: now }))
    .execute();
}

export async function ratingStats(
  db: Kysely<Database>,
  bookId: number,
): Promise<{ num: number; avg: number }> {
  const row = await db
    .selectFrom('ratings')
    .select((eb) => [eb.fn.countAll<number>().as('num'), eb.fn.avg<number>('rank').as('avg')])
    .where('book_id', '=', bookId)
    .executeTakeFirstOrThrow();
  return { num: Number(row.num), avg: row.avg === null ? 0 : Number(row.avg) };
}

export async function userRank(db: Kysely<Database>, userId: number, bookId: number): Promise<number> {
  const row = await db
    .selectFrom('ratings')
    .select('rank')
    .where('user_id', '=', userId)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  return row?.rank ?? 0;
}

export async function countRatings(db: Kysely<Database>, since?: number, until?: number): Promise<number> {
  let q = db.selectFrom('ratings').select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  if (until !== undefined) q = q.where('created_at', '<', until);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Books with the best average (at least `minVotes` ratings), then most ratings: the non-personal pool. */
export async function topRatedBookIds(db: Kysely<Database>, limit: number, minVotes = 1): Promise<number[]> {
  const rows = await db
    .selectFrom('ratings')
    .select([
      'book_id',
      (eb) => eb.fn.avg<number>('rank').as('avg'),
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .groupBy('book_id')
    .having((eb) => eb.fn.countAll(), '>=', minVotes)
    .orderBy('avg', 'desc')
    .orderBy('n', 'desc')
    .orderBy('book_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.book_id);
}
