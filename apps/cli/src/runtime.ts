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
 * serves requests (start) asks for background checkpoints; one-shot commands keep SQLite's own.
 */
export async function openRuntime(
  env: Record<string, string | undefined> = process.env,
  opts: { checkpoints?: 'inline' | 'background' } = {},
): Promise<Runtime> {
  const config = loadConfig(env);
  mkdirSync(config.storageDir, { recursive: true });
  const handle = createDb(config.database, { poolSize: config.databasePoolSize, ...opts });
  const migrated = await migrateToLatest(handle.db);
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
