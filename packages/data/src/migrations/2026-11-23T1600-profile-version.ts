import type { Kysely } from 'kysely';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * `counters.profile_version`, moved in the transaction of a registration that changes a registered
 * user's nickname or avatar. A book detail shows its readers' nicknames and avatars; readers keep
 * the detail they answered while neither the book's counts nor this version move.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('counters').values({ name: 'profile_version', value: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('counters').where('name', '=', 'profile_version').execute();
}
