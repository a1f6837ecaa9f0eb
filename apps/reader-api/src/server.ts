import { mkdirSync } from 'node:fs';
import { loadConfig } from '@readlib/config';
import { createDb, migrateToLatest } from '@readlib/data';
import { startReaderServer } from './index.js';

// Runs the reader API alone: `tsx src/server.ts`.
const config = loadConfig();
mkdirSync(config.storageDir, { recursive: true });
const handle = createDb(config.database);
await migrateToLatest(handle.db);
const app = await startReaderServer(config, { db: handle.db });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'closing');
  // in-flight requests finish before the database goes away
  await app.close();
  await handle.destroy();
  process.exit(0);
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal));
