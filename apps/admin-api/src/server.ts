import { loadConfig } from '@readlib/config';
import { createDb, migrateToLatest } from '@readlib/data';
import { operatorNotice, startAdminServer } from './start.js';

// `tsx src/server.ts`: the admin API alone, on its own database handle.
const config = loadConfig();
const handle = createDb(config.database);
await migrateToLatest(handle.db);
const server = await startAdminServer(config, { db: handle.db });
const notice = operatorNotice(server.firstOperator, server.url);
if (notice) console.log(notice);

let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  server.app.log.info({ signal }, 'closing');
  try {
    await server.close();
    await handle.destroy();
    process.exit(0);
  } catch (err) {
    server.app.log.error({ err }, 'close failed');
    process.exit(1);
  }
};
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
