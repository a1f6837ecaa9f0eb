import { mkdirSync } from 'node:fs';
import { loadConfig } from '@readlib/config';
import { assertDatabaseExists, assertSchemaCurrent, createDb } from '@readlib/data';
import { firstStatements, logIdleConnectionLost, servingDbOptions, stopOnSignals } from '@readlib/http';
import { startReaderServer } from './index.js';

// Runs the reader API alone: `node apps/reader-api/dist/server.js` from the repository (after `pnpm build`).
// A replica never migrates: `pnpm cli migrate` runs once before replicas roll, and a replica refuses a
// schema older or newer than its build (it could corrupt data).
async function serve(): Promise<void> {
  const config = loadConfig();
  assertDatabaseExists(config.database);
  mkdirSync(config.storageDir, { recursive: true });
  let app: Awaited<ReturnType<typeof startReaderServer>> | undefined;
  const handle = createDb(config.database, {
    ...servingDbOptions(config),
    // into the service's log once it runs; the pool replaces the connection on its own
    onIdleConnectionError: (err) => logIdleConnectionLost(app?.log, err),
    // PostgreSQL: answers are kept until a commit of any process is heard
    commitNotifications: {
      onLost: (err) =>
        app?.log.warn({ error: err.message }, 'not listening for commits: versions read at every request'),
      onRestored: () => app?.log.info('listening for commits again: kept answers in use'),
    },
  });
  try {
    await firstStatements(config.database, () => assertSchemaCurrent(handle.db));
    app = await startReaderServer(config, { db: handle.db });
  } catch (err) {
    await handle.destroy();
    throw err;
  }

  stopOnSignals({
    log: () => app?.log,
    // in-flight requests finish before the database goes away
    close: async () => {
      await app?.close();
      await handle.destroy();
    },
  });
}

serve().catch((err: Error) => {
  console.error(`reader-api: cannot start: ${err.message}`);
  process.exit(1);
});
