import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';
import type { DialectName } from './dialect.js';
import { trackPool } from './pool-stats.js';
import { ImmediateSqliteDialect } from './sqlite-dialect.js';
import { withStatementCache } from './sqlite-statements.js';
import {
  BACKSTOP_AUTOCHECKPOINT_PAGES,
  startWalCheckpointer,
  type WalCheckpointer,
} from './wal-checkpointer.js';

export type DbConfig =
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; url: string; searchPath?: string };

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  destroy(): Promise<void>;
  /** the background checkpointer of a SQLite file opened with `checkpoints: 'background'` */
  checkpointer?: WalCheckpointer;
}

export interface CreateDbOptions {
  /** PostgreSQL pool size (default 10) */
  poolSize?: number;
  /**
   * SQLite files: where write-ahead-log checkpoints run. 'inline' (default): inside the commit that
   * crosses 1,000 pages, SQLite's own behaviour, right for short-lived tools. 'background': on a worker
   * thread every 200 ms, so a service's event loop never waits for one (see wal-checkpointer.ts).
   */
  checkpoints?: 'inline' | 'background';
  /**
   * PostgreSQL: told when a pooled connection that was idle dies (server restart, failover, an idle
   * timeout of a proxy or firewall, `pg_terminate_backend`). The pool drops it and opens a new one on
   * demand; without a listener node-postgres would throw the error and end the process. Default: one
   * line on stderr.
   */
  onIdleConnectionError?: (err: Error) => void;
  /**
   * PostgreSQL: how long a query waits for a connection, a new one or a free one of a full pool
   * (default: no limit). A server that accepts no connections, or drops packets, then fails requests
   * (503) instead of holding them until the kernel gives up on TCP, minutes later.
   */
  connectTimeoutMs?: number;
  /** PostgreSQL: `statement_timeout` of every connection (default: none; migrations must not have one) */
  statementTimeoutMs?: number;
}

const warnIdleError = (err: Error) =>
  console.warn(
    `[readlib] an idle PostgreSQL connection was lost (${err.message}); the next query opens a new one`,
  );

// int8 (counts, bigint times) and numeric (averages) arrive from pg as strings; our values fit in a double.
const pgTypes = {
  getTypeParser(oid: number, format?: any) {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

export function createDb(config: DbConfig, options: CreateDbOptions = {}): DbHandle {
  if (config.dialect === 'postgres') {
    const settings = [
      ...(config.searchPath ? [`-c search_path=${config.searchPath}`] : []),
      ...(options.statementTimeoutMs ? [`-c statement_timeout=${options.statementTimeoutMs}`] : []),
    ];
    const pool = new pg.Pool({
      connectionString: config.url,
      max: options.poolSize ?? 10,
      types: pgTypes as any,
      ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
    });
    pool.on('error', options.onIdleConnectionError ?? warnIdleError);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    trackPool(db, () => ({
      dialect: 'postgres',
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
    return { db, dialect: 'postgres', destroy: () => db.destroy() };
  }
  if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
  const sqlite = new SQLite(config.file);
  // WAL lets both services read while one writes; busy_timeout makes writers wait instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // reads of a large catalogue: a 64 MiB page cache and memory-mapped I/O instead of read() calls
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  const checkpointer =
    options.checkpoints === 'background' && config.file !== ':memory:'
      ? startWalCheckpointer(config.file)
      : undefined;
  if (checkpointer) {
    sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
    // the service goes on (the backstop still checkpoints), but a full disk or an I/O error must be seen
    checkpointer.onEvent((e) => {
      if (e.type === 'error') console.error(`readlib: background WAL checkpoint failed: ${e.message}`);
    });
  }
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
  });
  trackPool(db, () => ({ dialect: 'sqlite', total: sqlite.open ? 1 : 0 }));
  return {
    db,
    dialect: 'sqlite',
    ...(checkpointer ? { checkpointer } : {}),
    destroy: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}
