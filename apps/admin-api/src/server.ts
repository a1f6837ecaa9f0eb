import { loadConfig } from '@readlib/config';
import { assertDatabaseExists, assertSchemaCurrent, createDb } from '@readlib/data';
import { firstStatements, logIdleConnectionLost, servingDbOptions, stopOnSignals } from '@readlib/http';
import { type AdminServer, operatorNotice, startAdminServer } from './start.js';

// `node apps/admin-api/dist/server.js` from the repository (after `pnpm build`): the admin API alone, on
// its own database handle. Like the reader, it never migrates (`pnpm cli migrate` does, once) and refuses
// a schema older or newer than its build.
async function serve(): Promise<void> {
  const config = loadConfig();
  assertDatabaseExists(config.database);
  let server: AdminServer | undefined;
  const handle = createDb(config.database, {
    ...servingDbOptions(config),
    // into the service's log once it runs; the pool replaces the connection on its own
    onIdleConnectionError: (err) => logIdleConnectionLost(server?.app.log, err),
    // PostgreSQL: operators' token versions are kept until a commit changing an operator is heard
    commitNotifications: {
      onLost: (err) =>
        server?.app.log.warn(
          { error: err.message },
          'not listening for commits: reading token versions at every request',
        ),
      onRestored: () => server?.app.log.info('listening for commits again: token versions kept'),
    },
  });
  try {
    await firstStatements(config.database, () => assertSchemaCurrent(handle.db));
    server = await startAdminServer(config, { db: handle.db });
  } catch (err) {
    await handle.destroy();
    throw err;
  }
  const notice = operatorNotice(server.firstOperator, server.url);
  if (notice) console.log(notice);

  const running = server;
  stopOnSignals({
    log: () => running.app.log,
    close: async () => {
      await running.close();
      await handle.destroy();
    },
  });
}

serve().catch((err: Error) => {
  console.error(`admin-api: cannot start: ${err.message}`);
  process.exit(1);
});
