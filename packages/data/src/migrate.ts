import { type Kysely, Migrator } from 'kysely';
import { migrationProvider, migrations } from './migrations/index.js';

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * `schema` names the PostgreSQL schema of Kysely's own bookkeeping tables. Without it Kysely looks for
 * them across every schema of the database, and a second schema in the same database (tests, tenants)
 * would be mistaken for this one.
 */
function migrator(db: Kysely<any>, schema?: string): Migrator {
  return new Migrator({ db, provider: migrationProvider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  const m = migrator(db, schema);
  const { error, results } = await m.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationError(`migration ${failed} failed: ${(error as Error).message ?? error}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}

export type SchemaState = 'current' | 'behind' | 'ahead' | 'empty';

/** Lets a service refuse to start against a schema it was not built for, instead of failing on first query. */
export async function schemaState(
  db: Kysely<any>,
  schema?: string,
): Promise<{ state: SchemaState; applied: string[]; expected: string[] }> {
  const expected = Object.keys(migrations).sort();
  const infos = await migrator(db, schema).getMigrations();
  const applied = infos.filter((m) => m.executedAt).map((m) => m.name);
  let state: SchemaState = 'current';
  if (applied.length === 0) state = 'empty';
  else if (applied.some((n) => !expected.includes(n))) state = 'ahead';
  else if (applied.length < expected.length) state = 'behind';
  return { state, applied, expected };
}
