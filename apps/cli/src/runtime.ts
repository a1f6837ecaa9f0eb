import { accessSync, constants, mkdirSync } from 'node:fs';
import { type IngestDeps, ORPHAN_GRACE_MS } from '@readlib/catalog';
import { type AppConfig, unreachableDatabase } from '@readlib/config';
import { assertSchemaCurrent, createDb, type DbHandle, migrateToLatest, schemaState } from '@readlib/data';
import { FileStore } from '@readlib/epub';
import { firstStatements, servingDbOptions } from '@readlib/http';

/** What a command that only touches the database needs (migrate, optimize, operator:*). */
export interface DatabaseRuntime {
  config: AppConfig;
  handle: DbHandle;
  /** names of the migrations this run applied (empty when the schema was current) */
  migrated: string[];
}

/** ... and a command that touches the store too (import, backup, restore, start). */
export interface Runtime extends DatabaseRuntime {
  store: FileStore;
  ingest: IngestDeps;
}

export interface RuntimeOptions {
  serve?: boolean;
  migrate?: boolean;
}

/**
 * What a command needs: validated config, a database at this build's schema and the file store.
 * `migrate`, `start` and `restore` migrate (`migrate: true`); the other commands migrate only a database
 * that has no schema yet (a first import on a new machine), and otherwise refuse one that is behind or
 * ahead: a backup or an import run from a newly pulled checkout must not migrate the live database
 * without a word, or the replicas still running the old version refuse to restart. A command that
 * serves requests (start) gets background checkpoints and the services' bounded waits (connect and
 * statement timeouts); its migrations run first on a connection of their own, without the statement
 * timeout, which a long index build would outlast. One-shot commands keep SQLite's own checkpoints.
 */
export async function openRuntime(config: AppConfig, opts: RuntimeOptions = {}): Promise<Runtime> {
  // an unwritable store is refused before the database is opened, let alone migrated
  assertWritable(config.storageDir);
  const { handle, migrated } = await openDatabase(config, opts);
  const store = new FileStore(config.storageDir);
  // an admin API may be receiving an upload into the store's temp folder right now: only what its own
  // cleanup would remove goes
  await closedOnError(handle, () => store.cleanTemp(ORPHAN_GRACE_MS));
  const ingest: IngestDeps = {
    db: handle.db,
    store,
    limits: {
      maxEntries: config.upload.maxEntries,
      maxTotalUncompressed: config.upload.maxUncompressedBytes,
    },
  };
  return { config, handle, store, ingest, migrated };
}

/**
 * The database alone, as openRuntime opens it: the commands that never read or write the store do not
 * need STORAGE_DIR, nor its being writable (a `migrate` on a host that does not mount the store).
 */
export async function openDatabase(config: AppConfig, opts: RuntimeOptions = {}): Promise<DatabaseRuntime> {
  // migrations on a handle of their own, without the statement timeout a long index build would outlast
  const migrating = openDb(config, {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseTimeouts.connectMs,
    preparedStatements: config.databasePreparedStatements,
  });
  const migrated = await closedOnError(migrating, () =>
    firstStatements(config.database, async () => {
      if (!opts.migrate && (await schemaState(migrating.db)).state !== 'empty') {
        await assertSchemaCurrent(migrating.db);
        return [];
      }
      return await migrateToLatest(migrating.db, undefined, { reportUtcOffsetMs: config.reportUtcOffsetMs });
    }),
  );
  if (!opts.serve) return { config, handle: migrating, migrated };
  await migrating.destroy();
  const handle = openDb(config, {
    ...servingDbOptions(config),
    // PostgreSQL: the reader keeps its answers until a commit of any process is heard
    commitNotifications: {
      onLost: (err) =>
        console.warn(
          `[readlib] not listening for commits (${err.message}); reading versions at every request until it listens again`,
        ),
      onRestored: () => console.warn('[readlib] listening for commits again'),
    },
  });
  return { config, handle, migrated };
}

/** An unwritable store is refused at start, not found by every demo book and then every upload. */
function assertWritable(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new Error(`STORAGE_DIR ${dir} cannot be created: ${(err as Error).message}`);
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new Error(`STORAGE_DIR ${dir} is not writable by this process`);
  }
}

/** Names the database: the drivers' own messages ("unable to open database file") do not. */
function openDb(config: AppConfig, opts: Parameters<typeof createDb>[1]): DbHandle {
  try {
    return createDb(config.database, opts);
  } catch (err) {
    throw unreachableDatabase(config.database, err);
  }
}

async function closedOnError<T>(handle: DbHandle, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await handle.destroy().catch(() => {});
    throw err;
  }
}
