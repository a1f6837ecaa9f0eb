import { existsSync } from 'node:fs';
import type { DbConfig } from './create-db.js';

/**
 * A service serves a database and never makes one: opening a SQLite file that is not there creates
 * it (and its folder) wherever the service was started, empty, and the service then failed on the
 * schema. Refused before anything is opened, naming where it looked; PostgreSQL and :memory: pass.
 */
export function assertDatabaseExists(config: DbConfig): void {
  if (config.dialect !== 'sqlite' || config.file === ':memory:' || existsSync(config.file)) return;
  throw new Error(
    `there is no database at ${config.file}: create it with \`pnpm cli migrate\` (run in the repository with the same DATABASE_URL), or set DATABASE_URL to the database to serve`,
  );
}
