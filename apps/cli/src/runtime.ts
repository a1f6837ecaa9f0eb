import { mkdirSync } from 'node:fs';
import type { IngestDeps } from '@readlib/catalog';
import { type AppConfig, loadConfig } from '@readlib/config';
import { createDb, type DbHandle, migrateToLatest } from '@readlib/data';
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
 * What every command needs: validated config, a migrated database and the file store. A command that
 * serves requests (start) gets background checkpoints and the services' bounded waits (connect and
 * statement timeouts); its migrations run first on a connection of their own, without the statement
 * timeout, which a long index build would outlast. One-shot commands keep SQLite's own checkpoints.
 */
export async function openRuntime(
  env: Record<string, string | undefined> = process.env,
  opts: { serve?: boolean } = {},
): Promise<Runtime> {
  const config = loadConfig(env);
  mkdirSync(config.storageDir, { recursive: true });
  const base = { poolSize: config.databasePoolSize, connectTimeoutMs: config.databaseTimeouts.connectMs };
  let handle = createDb(config.database, base);
  const migrated = await migrateToLatest(handle.db);
  if (opts.serve) {
    await handle.destroy();
    handle = createDb(config.database, {
      ...base,
      checkpoints: 'background',
      statementTimeoutMs: config.databaseTimeouts.statementMs,
    });
  }
  const store = new FileStore(config.storageDir);
  await store.cleanTemp();
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
