import { accessSync, constants, mkdirSync } from 'node:fs';
import { type IngestDeps, ORPHAN_GRACE_MS } from '@readlib/catalog';
import { type AppConfig, loadConfig } from '@readlib/config';
import { assertSchemaCurrent, createDb, type DbHandle, migrateToLatest, schemaState } from '@readlib/data';
import { FileStore } from '@readlib/epub';

export interface Runtime {
  config: AppConfig;
  handle: DbHandle;
  store: FileStore;
  ingest: IngestDeps;
  /** names of the migrations this run applied (empty when the schema was current) */
  migrated: string[];
}

/**
 * What every command needs: validated config, a database at this build's schema and the file store.
 * `migrate`, `start` and `restore` migrate (`migrate: true`); the other commands migrate only a database
 * that has no schema yet (a first import on a new machine), and otherwise refuse one that is behind or
 * ahead: a backup or an import run from a newly pulled checkout must not migrate the live database
 * without a word, or the replicas still running the old version refuse to restart. A command that
 * serves requests (start) gets background checkpoints and the services' bounded waits (connect and
 * statement timeouts); its migrations run first on a connection of their own, without the statement
 * timeout, which a long index build would outlast. One-shot commands keep SQLite's own checkpoints.
 */
export async function openRuntime(
  env: Record<string, string | undefined> = process.env,
  opts: { serve?: boolean; migrate?: boolean } = {},
): Promise<Runtime> {
  const config = loadConfig(env);
  mkdirSync(config.storageDir, { recursive: true });
  assertWritable(config.storageDir);
  const base = {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseTimeouts.connectMs,
    preparedStatements: config.databasePreparedStatements,
  };
  const migrating = openDb(config, base);
  const migrated = await closedOnError(migrating, async () => {
    try {
      if (!opts.migrate && (await schemaState(migrating.db)).state !== 'empty') {
        await assertSchemaCurrent(migrating.db);
        return [];
      }
      return await migrateToLatest(migrating.db, undefined, { reportUtcOffsetMs: config.reportUtcOffsetMs });
    } catch (err) {
      throw dbError(config, err);
    }
  });
  let handle = migrating;
  if (opts.serve) {
    await migrating.destroy();
    handle = openDb(config, {
      ...base,
      checkpoints: 'background',
      statementTimeoutMs: config.databaseTimeouts.statementMs,
      // PostgreSQL: the reader keeps its answers until a commit of any process is heard
      commitNotifications: {
        onLost: (err) =>
          console.warn(
            `[readlib] not listening for commits (${err.message}); reading versions at every request until it listens again`,
          ),
      },
    });
  }
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

/** An unwritable store is refused at start, not found by every demo book and then every upload. */
function assertWritable(dir: string): void {
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new Error(`STORAGE_DIR ${dir} is not writable by this process`);
  }
}

function openDb(config: AppConfig, opts: Parameters<typeof createDb>[1]): DbHandle {
  try {
    return createDb(config.database, opts);
  } catch (err) {
    throw dbError(config, err);
  }
}

/** Names the database: the drivers' own messages ("unable to open database file") do not. */
function dbError(config: AppConfig, err: unknown): Error {
  const name = config.database.dialect === 'sqlite' ? config.database.file : 'PostgreSQL';
  return new Error(`database ${name}: ${(err as Error).message}`, { cause: err });
}

async function closedOnError<T>(handle: DbHandle, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await handle.destroy().catch(() => {});
    throw err;
  }
}
