import { type AppConfig, type DatabaseConfig, unreachableDatabase } from '@readlib/config';
import { type CreateDbOptions, MigrationError } from '@readlib/data';

/**
 * The database handle's options of a process that serves requests (both services of `pnpm start`, or
 * one service alone from its server.ts), from the configuration: the pool, the bounded waits a request
 * may spend on the database, and checkpoints off the event loop. Migrations must not run on such a
 * handle: a long index build would outlast the statement timeout.
 */
export function servingDbOptions(config: AppConfig): CreateDbOptions {
  return {
    poolSize: config.databasePoolSize,
    checkpoints: 'background',
    connectTimeoutMs: config.databaseTimeouts.connectMs,
    statementTimeoutMs: config.databaseTimeouts.statementMs,
    preparedStatements: config.databasePreparedStatements,
  };
}

/**
 * Runs the first statements a process sends its database (the schema check, migrations) and says
 * their failure as an operator needs it: a MigrationError already says what is wrong with the schema
 * and is thrown as it is; any other failure means the database was not reached (refused, missing,
 * a wrong password), said with where it was looked for, since the drivers' own words do not say.
 */
export async function firstStatements<T>(database: DatabaseConfig, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof MigrationError ? err : unreachableDatabase(database, err);
  }
}
