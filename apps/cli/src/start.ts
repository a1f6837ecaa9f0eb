import { startAdminServer } from '@readlib/admin-api';
import { countBooks } from '@readlib/data';
import { startReaderServer } from '@readlib/reader-api';
import { importAll } from './commands/import.command.js';
import { demoInputs } from './demo/demo-catalogue.js';
import { rememberDevPassword } from './operator-note.js';
import { Progress } from './progress.js';
import { openRuntime } from './runtime.js';

// `pnpm start`: both services on one database and one store, the embedded default unless configured.
const rt = await openRuntime(process.env, { serve: true });
const { config, handle } = rt;

if (config.demoCatalogue && (await countBooks(handle.db)) === 0) {
  const summary = await importAll(rt.ingest, await demoInputs(), {
    progress: new Progress('demo catalogue'),
  });
  console.log(
    `demo catalogue: ${summary.added} books added, ${summary.duplicate} duplicates skipped, ${summary.failed.length} failed`,
  );
  for (const f of summary.failed) console.log(`  ${f.file}: ${f.reason}`);
}

const reader = await startReaderServer(config, { db: handle.db });
// the admin server creates the first operator when none exists and says what it did
const admin = await startAdminServer(config, { db: handle.db, store: rt.store });
const login = rememberDevPassword(config, admin.firstOperator);
const where = (port: number) => `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
console.log(`
reader API  ${where(config.readerPort)}   (docs: ${where(config.readerPort)}/docs)
admin API   ${where(config.adminPort)}   (docs: ${where(config.adminPort)}/docs)
database    ${config.database.dialect === 'sqlite' ? config.database.file : 'PostgreSQL'}
store       ${config.storageDir}
${login}${config.jwt.generatedSecret ? '\nJWT secret  generated for this run (set JWT_SECRET to keep tokens valid across restarts)' : ''}
`);

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  // both servers stop taking requests and finish the ones in flight before the database closes
  await Promise.allSettled([reader.close(), admin.close()]);
  await handle.destroy();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
