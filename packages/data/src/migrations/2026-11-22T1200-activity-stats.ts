import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/** Start of the hot-list window when the migration runs (30 days; reader-context's HOT_WINDOW_MS). */
const WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Precomputed activity per book and per search keyword, kept in step by the write paths, so hot lists
 * and the well-rated pool read a few index entries instead of aggregating the view, rating and search
 * logs per request. `*_recent` counts events at or after the cut in `stat_cuts`; readers move the cut
 * forward by subtracting the events that left the window (see activity-stats.repository.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const ms = pg ? 'bigint' : 'integer';
  const real = pg ? 'double precision' : 'real';

  await db.schema
    .createTable('book_stats')
    .addColumn('book_id', 'integer', (c) => c.primaryKey().references('books.id').onDelete('cascade'))
    .addColumn('views_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views_recent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_num', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_avg', real, (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index book_stats_recent_idx on book_stats (views_recent desc, book_id)`.execute(db);
  await sql`create index book_stats_total_idx on book_stats (views_total desc, book_id)`.execute(db);
  await sql`create index book_stats_rated_idx on book_stats (rating_avg desc, rating_num desc, book_id)`.execute(
    db,
  );

  await db.schema
    .createTable('search_stats')
    .addColumn('keyword', 'text', (c) => c.primaryKey())
    .addColumn('recent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index search_stats_recent_idx on search_stats (recent desc, keyword)`.execute(db);

  await db.schema
    .createTable('stat_cuts')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('upto', ms, (c) => c.notNull())
    .execute();

  await backfill(db, Date.now() - WINDOW_MS);
}

async function backfill(db: Kysely<any>, cut: number): Promise<void> {
  await sql`insert into book_stats (book_id, views_total, views_recent, rating_num, rating_sum, rating_avg)
    select b.id, coalesce(v.total, 0), coalesce(v.recent, 0), coalesce(r.num, 0), coalesce(r.total, 0),
           case when r.num > 0 then r.total * 1.0 / r.num else 0 end
    from books b
    left join (select book_id, count(*) as total,
                      sum(case when created_at >= ${cut} then 1 else 0 end) as recent
               from views group by book_id) v on v.book_id = b.id
    left join (select book_id, count(*) as num, sum(rank) as total from ratings group by book_id) r
           on r.book_id = b.id
    where v.book_id is not null or r.book_id is not null`.execute(db);
  await sql`insert into search_stats (keyword, recent)
    select keyword, count(*) from search_log where created_at >= ${cut} group by keyword`.execute(db);
  await sql`insert into stat_cuts (name, upto) values ('views', ${cut}), ('searches', ${cut})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stat_cuts').execute();
  await db.schema.dropTable('search_stats').execute();
  await db.schema.dropTable('book_stats').execute();
}
