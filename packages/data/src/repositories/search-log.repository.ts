import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { longRead } from '../sqlite/read-worker.js';
import { inTransaction } from '../write-batcher.js';
import { countSearch } from './activity-stats.repository.js';

/**
 * The form a keyword is logged and counted in. Search matches case-insensitively, so `Dune`, `dune`,
 * `DUNE ` and full-width `Ｄｕｎｅ` are one keyword for the hot search and the word cloud, not four that
 * each count a quarter. Compatibility forms are unified (NFKC), case is folded, spaces are collapsed.
 */
export function foldKeyword(keyword: string): string {
  return keyword.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');
}

/** Logs a search (decisions.md §3: keyword, openId if any, time), its keyword folded by foldKeyword. */
export async function logSearch(
  db: Kysely<Database>,
  keyword: string,
  openId: string | null,
  now = Date.now(),
) {
  const folded = foldKeyword(keyword);
  if (dialectOf(db) === 'postgres') {
    await pgLogSearch(db, folded, openId, now);
    return;
  }
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('search_log')
      .values({ keyword: folded, open_id: openId, created_at: now })
      .execute();
    await countSearch(trx, folded, now);
  });
}

/**
 * PostgreSQL: the log row and the keyword's count in one statement, so one round trip where a
 * transaction of its own took five (begin, insert, the cut, the count, commit). A statement is atomic
 * by itself, and inside a caller's transaction (a group commit) it is one of its statements. The cut
 * is share-locked as countSearch locks it: a sweep moving it waits for this statement's transaction,
 * so a search counted as recent is never also subtracted as aged.
 */
async function pgLogSearch(db: Kysely<Database>, keyword: string, openId: string | null, at: number) {
  await sql`with cut as (select upto from stat_cuts where name = 'searches' for share),
      logged as (insert into search_log (keyword, open_id, created_at) values (${keyword}, ${openId}, ${at}))
    insert into search_stats (keyword, recent)
      select ${keyword}, case when ${at} >= coalesce((select upto from cut), 0) then 1 else 0 end
    on conflict (keyword) do update set recent = search_stats.recent + excluded.recent`.execute(db);
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
  until = Number.MAX_SAFE_INTEGER,
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
      .where('created_at', '<', until)
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
