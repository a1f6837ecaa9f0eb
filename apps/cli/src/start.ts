import type { AddressInfo } from 'node:net';
import { type AdminServer, startAdminServer } from '@readlib/admin-api';
import { databaseLocation, loadConfig } from '@readlib/config';
import { countBooks, demoState, setDemoState } from '@readlib/data';
import { type App, assertCanListen, stopOnSignals } from '@readlib/http';
import { startReaderServer } from '@readlib/reader-api';
import { importAll } from './commands/import.command.js';
import { demoInputs } from './demo/demo-catalogue.js';
import { rememberDevPassword } from './operator-note.js';
import { Progress } from './progress.js';
import { openRuntime, type Runtime } from './runtime.js';

// `pnpm start`: both services on one database and one store, the embedded default unless configured.
async function start(): Promise<void> {
  const settings = loadConfig();
  // a HOST or port neither service could listen on is refused before the database is migrated
  await naming('reader API', () => assertCanListen(settings.host, settings.readerPort, 'READER_PORT'));
  await naming('admin API', () => assertCanListen(settings.host, settings.adminPort, 'ADMIN_PORT'));
  const rt = await openRuntime(settings, { serve: true, migrate: true });
  const { config, handle } = rt;
  let reader: App | undefined;
  let admin: AdminServer | undefined;
  const close = async () => {
    // both servers stop taking requests and finish the ones in flight before the database closes
    await Promise.allSettled([reader?.close(), admin?.close()]);
    await handle.destroy();
  };

  // from the start: a stop during the demo load (minutes on a slow disk) closes cleanly too, and the
  // next start finishes the load; both services write to one log, so the reader's logger says it
  const stopping = stopOnSignals({ log: () => reader?.log ?? admin?.app.log, close });

  let login: string;
  try {
    // the servers first: a busy port or a missing production operator is refused before any demo book
    // is written
    reader = await naming('reader API', () => startReaderServer(config, { db: handle.db }));
    // the admin server creates the first operator when none exists and says what it did
    admin = await naming('admin API', () => startAdminServer(config, { db: handle.db, store: rt.store }));
    login = rememberDevPassword(config, admin.firstOperator);
    if (config.demoCatalogue) await loadDemoOnce(rt);
  } catch (err) {
    if (stopping()) return; // stopped meanwhile: stopOnSignals exits
    await close().catch(() => {});
    throw err;
  }

  const readerUrl = where(config.host, reader);
  const adminUrl = where(config.host, admin.app);
  console.log(`
reader API  ${readerUrl}   (docs: ${readerUrl}/docs)
admin API   ${adminUrl}   (docs: ${adminUrl}/docs)
console     ${adminUrl}/console/
database    ${databaseLocation(config.database)}
store       ${config.storageDir}
${login}${config.jwt.generatedSecret ? '\nJWT secret  generated for this run (set JWT_SECRET to keep tokens valid across restarts)' : ''}
`);
}

/**
 * The demo books on a database's first start only, and again only to finish a first start that was
 * stopped midway (books already there are skipped as duplicates). A catalogue of the operators' own, or
 * one they emptied, is left alone.
 */
async function loadDemoOnce(rt: Runtime): Promise<void> {
  const state = await demoState(rt.handle.db);
  if (state === 'done') return;
  if (state === 'never' && (await countBooks(rt.handle.db)) > 0) return setDemoState(rt.handle.db, 'done');
  await setDemoState(rt.handle.db, 'loading');
  const summary = await importAll(rt.ingest, await demoInputs(), {
    progress: new Progress('demo catalogue'),
  });
  console.log(
    `demo catalogue: ${summary.added} books added, ${summary.duplicate} duplicates skipped, ${summary.failed.length} failed`,
  );
  for (const f of summary.failed) console.log(`  ${f.file}: ${f.reason}`);
  await setDemoState(rt.handle.db, 'done');
}

/**
 * The address a browser on this machine can open: the port the server is bound to (port 0 asks the
 * system for a free one), and localhost for a wildcard host.
 */
function where(host: string, app: App): string {
  const { port } = app.server.address() as AddressInfo;
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Its errors say which service failed ("listen EADDRINUSE ... 127.0.0.1:3001" alone does not). */
async function naming<T>(service: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new Error(`${service}: ${(err as Error).message}`, { cause: err });
  }
}

start().catch((err: Error) => {
  // one line, as the standalone services print it, whatever the message holds
  console.error(`readlib: cannot start: ${err.message.replace(/\s*\n\s*/g, ' ')}`);
  process.exit(1);
});
