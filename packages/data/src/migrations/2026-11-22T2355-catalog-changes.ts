import type { Kysely } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * Which books each catalogue version changed, written in the transaction that moves
 * counters.catalog_version. Readers dropped every book they kept whenever the version moved; with the
 * log they forget only the books a change touched, so an operator's edits or an import no longer
 * empty every reader's memo several times a second. Only the newest versions are kept.
 * `facet_version` moves only when a write changes the author and publisher counts (book_values), so
 * readers keep their most frequent values (search facets) across every other edit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_changes')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('book_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalog_changes_pk', ['version', 'book_id'])
    .execute();
  await db.insertInto('counters').values({ name: 'facet_version', value: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_changes').execute();
  await db.deleteFrom('counters').where('name', '=', 'facet_version').execute();
}
