import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MigrationResultSet, Migrator } from 'kysely';
import pg from 'pg';
import { createDb, type DbConfig, type DbHandle } from '../create-db.js';
import type { DialectName } from '../dialect.js';
import { migrateToLatest, migrator } from '../migrate.js';

export interface TestDialect {
  name: DialectName;
  /** A fresh, migrated database: a new SQLite file, or a new PostgreSQL schema dropped on destroy. */
  create(): Promise<DbHandle & { config: DbConfig }>;
}

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const sqlite: TestDialect = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'readlib-db-'));
    const config: DbConfig = { dialect: 'sqlite', file: join(dir, 'library.db') };
    const handle = createDb(config);
    await migrateToLatest(handle.db);
    return {
      ...handle,
      config,
      destroy: async () => {
        await handle.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/**
 * pg_trgm must live in `public` (on every test schema's search_path): created inside a test schema it
 * would vanish with that schema. Two workers may race to create it, hence the retry.
 */
async function ensureTrigramInPublic(admin: pg.Client): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { rows } = await admin.query(
        `select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`,
      );
      if (rows.length === 0) await admin.query('create extension if not exists pg_trgm with schema public');
      else if (rows[0].nspname !== 'public') await admin.query('alter extension pg_trgm set schema public');
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  }
}

/**
 * Kysely's introspection (run by the migrator) resolves every schema and table name of the database
 * (`pg_get_serial_sequence` of each column's table); another test file dropping its own schema at that
 * moment makes it fail with "schema t_... does not exist" or, for a table the drop just took,
 * "relation "t_....ratings" does not exist" (seen once in a full parallel run). Only those errors are
 * retried: the migrations run in transactions, so a retry starts clean.
 */
const RACED_DROP = /(schema "t_[0-9a-f]+"|relation "t_[0-9a-f]+\.\w+") does not exist/;

async function retryingRacedDrops<T>(run: () => Promise<T>, errorOf: (r: T) => unknown): Promise<T> {
  const raced = (err: unknown) => RACED_DROP.test(String((err as Error)?.message));
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= 4;
    try {
      const result = await run();
      if (last || !raced(errorOf(result))) return result;
    } catch (err) {
      if (last || !raced(err)) throw err;
    }
    await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
  }
}

/** `migrateToLatest` for a test's own schema, with the same retry as the fresh schemas' migration. */
export function migrateRacingDrops(
  db: DbHandle['db'],
  schema?: string,
  options?: Parameters<typeof migrateToLatest>[2],
): Promise<string[]> {
  return retryingRacedDrops(
    () => migrateToLatest(db, schema, options),
    () => undefined,
  );
}

/** A test's own migrator (down and up again), with the same retry as the fresh schemas' migration. */
export function testMigrator(db: DbHandle['db'], schema?: string) {
  const m = migrator(db, schema);
  const settled = (r: MigrationResultSet) => r.error;
  return {
    migrateTo: (target: Parameters<Migrator['migrateTo']>[0]) =>
      retryingRacedDrops(() => m.migrateTo(target), settled),
    migrateToLatest: () => retryingRacedDrops(() => m.migrateToLatest(), settled),
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await c.end();
  }
}

/** One fresh schema, migrated; on any failure the schema is dropped before the error goes up. */
async function freshSchema(url: string): Promise<DbHandle & { config: DbConfig; schema: string }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await ensureTrigramInPublic(admin);
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const config: DbConfig = { dialect: 'postgres', url, searchPath: `${schema},public` };
  const handle = createDb(config, { poolSize: 4 });
  try {
    await migrateRacingDrops(handle.db, schema);
  } catch (err) {
    await handle.destroy();
    await dropSchema(url, schema);
    throw err;
  }
  return { ...handle, config, schema };
}

function postgres(url: string): TestDialect {
  return {
    name: 'postgres',
    async create() {
      // Parallel test files create and drop schemas in one database; PostgreSQL's catalog scans can
      // trip over a schema dropped mid-scan. A failed setup is retried on a new schema; a migration
      // that is really broken fails every attempt and surfaces.
      let handle: Awaited<ReturnType<typeof freshSchema>> | undefined;
      for (let attempt = 1; !handle; attempt++) {
        try {
          handle = await freshSchema(url);
        } catch (err) {
          if (attempt >= 3) throw err;
          console.warn(`[readlib] retrying a PostgreSQL test schema after: ${(err as Error).message}`);
        }
      }
      const { schema, ...rest } = handle;
      return {
        ...rest,
        destroy: async () => {
          await rest.destroy();
          await dropSchema(url, schema);
        },
      };
    },
  };
}

let cached: Promise<TestDialect[]> | undefined;

/**
 * SQLite always; PostgreSQL when TEST_DATABASE_URL (or the default 127.0.0.1:5432/test) answers.
 * When it does not, the skip is printed, and REQUIRE_POSTGRES=1 (CI) turns it into a failure.
 */
export function testDialects(): Promise<TestDialect[]> {
  cached ??= (async () => {
    const url = process.env.TEST_DATABASE_URL || DEFAULT_PG;
    const problem = await reachable(url);
    if (!problem) return [sqlite, postgres(url)];
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${url} is unreachable: ${problem}`);
    }
    console.warn(`[readlib] PostgreSQL tests SKIPPED: ${url} unreachable (${problem}); SQLite tests run.`);
    return [sqlite];
  })();
  return cached;
}
