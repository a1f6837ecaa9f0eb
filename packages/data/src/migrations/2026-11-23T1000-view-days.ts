import type { Kysely } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * Views per UTC day and category for days that are over, rolled up on demand (view-days.repository.ts)
 * so the report screens read a window's past days as a few hundred rows instead of grouping every view
 * of the window (about a million for 30 days at 100k books). Filled by the first screen after this
 * migration, one day per transaction, from the oldest view on; the progress is stat_cuts['view_days'].
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('view_days')
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('view_days_pk', ['day', 'category_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('view_days').execute();
  await db.deleteFrom('stat_cuts').where('name', '=', 'view_days').execute();
}
