import { type Kysely, Migrator, sql } from 'kysely';
import { migrationProvider, migrations } from './migrations/index.js';
import { dropPlannerSamples } from './planner-statistics.js';
import { rollUpViewDays, viewDaysOffset } from './repositories/view-days.repository.js';

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * `schema` names the PostgreSQL schema of Kysely's own bookkeeping tables. Without it Kysely looks for
 * them across every schema of the database, and a second schema in the same database (tests, tenants)
 * would be mistaken for this one.
 */
/** The Migrator of this package's migrations (tests step through them). */
export function migrator(db: Kysely<any>, schema?: string): Migrator {
  return new Migrator({
    db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

export interface MigrateOptions {
  /**
   * REPORT_UTC_OFFSET in ms east of UTC: the report days the views are rolled up in. Without it, those
   * of the last roll-up (UTC the first time), so a caller that does not know the configuration (tests,
   * benchmarks) never re-keys a deployment's roll-up.
   */
  reportUtcOffsetMs?: number;
}

export async function migrateToLatest(
  db: Kysely<any>,
  schema?: string,
  options: MigrateOptions = {},
): Promise<string[]> {
  // a newer build's database is named as such (Kysely's own words were "corrupted migrations")
  if ((await schemaState(db, schema)).state === 'ahead') await assertSchemaCurrent(db, schema);
  const m = migrator(db, schema);
  const { error, results } = await m.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const why = (error as Error).message ?? String(error);
    // no migration ran: the database could not be reached or read, which is not a migration's failure
    throw new MigrationError(failed ? `migration ${failed} failed: ${why}` : `cannot migrate: ${why}`);
  }
  // each deploy migrates: it also clears the value samples a hand-run ANALYZE may have left
  await dropPlannerSamples(db);
  // and counts the views of the days over since the last report screen (all of them the first time,
  // and again after the offset changed)
  const offset = options.reportUtcOffsetMs ?? (await viewDaysOffset(db)) ?? 0;
  await rollUpViewDays(db, Date.now(), offset);
  return (results ?? []).map((r) => r.migrationName);
}

export type SchemaState = 'current' | 'behind' | 'ahead' | 'empty';

/**
 * Compares the migrations recorded in the database with the ones this build carries. 'ahead' means a
 * newer build migrated the database: running older code against it could corrupt data.
 */
export async function schemaState(
  db: Kysely<any>,
  schema?: string,
): Promise<{ state: SchemaState; applied: string[]; expected: string[] }> {
  const expected = Object.keys(migrations).sort();
  const table = schema ? sql.table(`${schema}.kysely_migration`) : sql.table('kysely_migration');
  let applied: string[];
  try {
    const res = await sql<{ name: string }>`select name from ${table} order by name`.execute(db);
    applied = res.rows.map((r) => r.name);
  } catch (err) {
    // no bookkeeping table yet: a database never migrated. Anything else (a refused connection, a
    // database that does not exist, a refused password) is thrown as it is: read as "empty", it had
    // the services advise a migrate that could not have reached the database either.
    if (!isMissingTable(err)) throw err;
    applied = [];
  }
  let state: SchemaState = 'current';
  if (applied.length === 0) state = 'empty';
  else if (applied.some((n) => !expected.includes(n))) state = 'ahead';
  else if (applied.length < expected.length) state = 'behind';
  return { state, applied, expected };
}

/** Services call this at start when they must not migrate themselves (several replicas, production). */
export async function assertSchemaCurrent(db: Kysely<any>, schema?: string): Promise<void> {
  const { state, applied, expected } = await schemaState(db, schema);
  if (state === 'current') return;
  const latest = (list: string[]) => list[list.length - 1] ?? 'none';
  const advice =
    state === 'ahead'
      ? 'the database was migrated by a newer version of this service: deploy that version'
      : // a deployed host runs the build (`pnpm cli` would rebuild it as the service user)
        'run migrate once (`pnpm cli migrate`; where the build is deployed, `node apps/cli/dist/main.js migrate` or `systemctl restart readlib-migrate`), then start the services';
  throw new MigrationError(
    `database schema is ${state} (database at ${latest(applied)}, this build expects ${latest(expected)}): ${advice}`,
  );
}

/** PostgreSQL's undefined_table, or SQLite's `no such table` (which has no code of its own). */
function isMissingTable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return code === '42P01' || (typeof message === 'string' && message.startsWith('no such table:'));
}
