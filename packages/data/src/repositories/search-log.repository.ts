import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.js';
import { dialectOf } from '../dialect.js';
import { longRead } from '../sqlite/read-worker.js';
import { prepareOnPostgres, writesLogsOnly } from '../statement-marks.js';
import { inTransaction } from '../write-batcher.js';
import { countKeywordSearches } from './activity-stats.repository.js';

/**
 * The form a keyword is logged and counted in. Search matches case-insensitively, so `Dune`, `dune`,
 * `DUNE ` and full-width `Ｄｕｎｅ` are one keyword for the hot search and the word cloud, not four that
 * each count a quarter. Compatibility forms are unified (NFKC), case is folded, spaces are collapsed.
 */
export function foldKeyword(keyword: string): string {
  return keyword.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');
}

/** A search to log (decisions.md §3: keyword, openId if any, time). */
export interface SearchLogEntry {
  keyword: string;
  openId: string | null;
  at: number;
}

/** Logs a search, its keyword folded by foldKeyword. */
export function logSearch(db: Kysely<Database>, keyword: string, openId: string | null, now = Date.now()) {
  return logSearches(db, [{ keyword, openId, at: now }]);
}

/**
 * Logs searches together: their rows in one insert, and each keyword counted once by its number of
 * searches (a popular keyword searched by many readers at once moves its count once, not once each).
 */
export async function logSearches(db: Kysely<Database>, entries: readonly SearchLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({ keyword: foldKeyword(e.keyword), open_id: e.openId, created_at: e.at }));
  if (dialectOf(db) === 'postgres') {
    await pgLogSearches(db, rows);
    return;
  }
  await inTransaction(db, async (trx) => {
    // three parameters a row: well under SQLite's bound of a statement's parameters
    for (let i = 0; i < rows.length; i += 1000)
      await trx
        .insertInto('search_log')
        .values(rows.slice(i, i + 1000))
        .execute();
    await countKeywordSearches(
      trx,
      rows.map((r) => ({ keyword: r.keyword, at: r.created_at })),
    );
  });
}

/**
 * PostgreSQL: the log rows and the keywords' counts in one statement, so one round trip where a
 * transaction of its own took five (begin, insert, the cut, the count, commit). A statement is atomic
 * by itself, and inside a caller's transaction (a group commit) it is one of its statements. The cut
 * is share-locked as countKeywordSearches locks it: a sweep moving it waits for this statement's
 * transaction, so a search counted as recent is never also subtracted as aged. Keywords are counted
 * in their order, so two such statements lock the counts they share in the same order.
 */
async function pgLogSearches(
  db: Kysely<Database>,
  rows: Array<{ keyword: string; open_id: string | null; created_at: number }>,
) {
  const query = sql`with cut as (select upto from stat_cuts where name = 'searches' for share),
      given as (
        select keyword, open_id, created_at from unnest(${rows.map((r) => r.keyword)}::text[], ${rows.map((r) => r.open_id)}::text[],
          ${rows.map((r) => r.created_at)}::bigint[]) as g (keyword, open_id, created_at)),
      logged as (insert into search_log (keyword, open_id, created_at) select keyword, open_id, created_at from given)
    insert into search_stats (keyword, recent)
      select keyword, count(*) filter (where created_at >= coalesce((select upto from cut), 0))
      from given group by keyword order by keyword
    on conflict (keyword) do update set recent = search_stats.recent + excluded.recent`.compile(db);
  // one text whatever the rows (they are arrays): planned once per connection; no reader keeps it
  prepareOnPostgres(query.sql);
  writesLogsOnly(query.sql);
  await db.executeQuery(query);
}

export interface KeywordCount {
  keyword: string;
  count: number;
  users: number;
}

/** Keywords searched since `since`, most frequent first, with their distinct searchers (the word cloud). */
export async function topKeywords(
  db: Kysely<Database>,
  since: number,
  limit: number,
  until = Number.MAX_SAFE_INTEGER,
): Promise<KeywordCount[]> {
  const rows = await longRead(
    db,
    searchesByKeyword(db, since, until, limit).select((eb) =>
      eb.fn.count<number>('open_id').distinct().as('u'),
    ),
  );
  return rows.map((r) => ({ keyword: r.keyword, count: Number(r.n), users: Number(r.u) }));
}

/**
 * Keywords searched since `since`, most frequent first, without their searchers: counting distinct
 * searchers sorts each keyword's searches, about twice the time of counting them (top searches, the
 * reader's hot keyword).
 */
export async function topKeywordCounts(
  db: Kysely<Database>,
  since: number,
  limit: number,
  until = Number.MAX_SAFE_INTEGER,
): Promise<Array<Omit<KeywordCount, 'users'>>> {
  const rows = await longRead(db, searchesByKeyword(db, since, until, limit));
  return rows.map((r) => ({ keyword: r.keyword, count: Number(r.n) }));
}

/**
 * The searches of [since, until) counted per keyword, the `limit` most searched: read from
 * search_log_keyword_idx alone.
 */
function searchesByKeyword(db: Kysely<Database>, since: number, until: number, limit: number) {
  return db
    .selectFrom('search_log')
    .select(['keyword', (eb) => eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', since)
    .where('created_at', '<', until)
    .groupBy('keyword')
    .orderBy('n', 'desc')
    .orderBy('keyword')
    .limit(limit);
}

export async function countSearches(db: Kysely<Database>, since?: number, until?: number): Promise<number> {
  let q = db.selectFrom('search_log').select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  if (until !== undefined) q = q.where('created_at', '<', until);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
