import { mkdirSync } from 'node:fs';
import { loadConfig, unreachableDatabase } from '@readlib/config';
import { assertDatabaseExists, assertSchemaCurrent, createDb, MigrationError } from '@readlib/data';
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
    poolSize: config.databasePoolSize,
    checkpoints: 'background',
    connectTimeoutMs: config.databaseTimeouts.connectMs,
    statementTimeoutMs: config.databaseTimeouts.statementMs,
    preparedStatements: config.databasePreparedStatements,
    // into the service's log once it runs; the pool replaces the connection on its own
    onIdleConnectionError: (err) => app?.log.warn({ err }, 'idle database connection lost'),
    // PostgreSQL: answers are kept until a commit of any process is heard
    commitNotifications: {
      onLost: (err) => app?.log.warn({ err }, 'not listening for commits: versions read at every request'),
    },
  });
  try {
    // the first query: a database that cannot be reached is said as such, with the driver's cause
    await assertSchemaCurrent(handle.db).catch((err: unknown) => {
      throw err instanceof MigrationError ? err : unreachableDatabase(config.database, err);
    });
    app = await startReaderServer(config, { db: handle.db });
  } catch (err) {
    await handle.destroy();
    throw err;
  }

  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    app?.log.info({ signal }, 'closing');
    // in-flight requests finish before the database goes away
    await app?.close();
    await handle.destroy();
    process.exit(0);
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal));
}

serve().catch((err: Error) => {
  console.error(`reader-api: cannot start: ${err.message}`);
  process.exit(1);
});
