import { type Kysely, sql } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * The UTC offset (ms east) of the days a cut's counts are keyed by; only the view_days marker has
 * days. view_days rows are keyed by the day number of REPORT_UTC_OFFSET (decisions.md §5), and days
 * of two offsets overlap, so a roll-up made with another offset must be recognised to be discarded
 * and made again, never added to. The rows rolled up so far were UTC days: 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('stat_cuts')
    .addColumn('utc_offset_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // the build before reads every row as a UTC day: days of another offset go, and are rolled up again
  const shifted = sql<boolean>`exists (select 1 from stat_cuts where name = 'view_days' and utc_offset_ms <> 0)`;
  await db.deleteFrom('view_days').where(shifted).execute();
  await db.deleteFrom('stat_cuts').where('name', '=', 'view_days').where('utc_offset_ms', '<>', 0).execute();
  await db.schema.alterTable('stat_cuts').dropColumn('utc_offset_ms').execute();
}
