import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { longRead } from '../sqlite-read-worker.js';
import { inTransaction } from '../write-batcher.js';
import { countSearch } from './activity-stats.repository.js';

export async function logSearch(
  db: Kysely<Database>,
  keyword: string,
  openId: string | null,
  now = Date.now(),
) {
  await inTransaction(db, async (trx) => {
    await trx.insertInto('search_log').values({ keyword, open_id: openId, created_at: now }).execute();
    await countSearch(trx, keyword, now);
  });
}

export interface KeywordCount {
  keyword: string;
  count: number;
  users: number;
}

/** Keywords searched since `since`, most frequent first, with their distinct searchers. */
export async function topKeywords(
  db: Kysely<Database>,
  since: number,
  limit: number,
): Promise<KeywordCount[]> {
  const rows = await longRead(
    db,
    db
      .selectFrom('search_log')
      .select([
        'keyword',
        (eb) => eb.fn.countAll<number>().as('n'),
        (eb) => eb.fn.count<number>('open_id').distinct().as('u'),
      ])
      .where('created_at', '>=', since)
      .groupBy('keyword')
      .orderBy('n', 'desc')
      .orderBy('keyword')
      .limit(limit),
  );
  return rows.map((r) => ({ keyword: r.keyword, count: Number(r.n), users: Number(r.u) }));
}

export async function countSearches(db: Kysely<Database>, since?: number, until?: number): Promise<number> {
  let q = db.selectFrom('search_log').select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  if (until !== undefined) q = q.where('created_at', '<', until);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
