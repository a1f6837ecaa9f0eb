import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { setCommitProbe } from './commit-probe.js';
import type { Database } from './database.js';
import type { DialectName } from './dialect.js';
import { type HeldFile, holdFile } from './held-file.js';
import { trackPool } from './pool-stats.js';
import { ImmediateSqliteDialect } from './sqlite-dialect.js';
import { SqliteReadWorker, setReadWorker } from './sqlite-read-worker.js';
import { SplitSqliteDialect } from './sqlite-split-driver.js';
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
  /**
   * SQLite files: how long a write waits for the write lock another process holds (default 5000 ms),
   * then fails with SQLITE_BUSY (a 503 in the services). The wait does not stop reads.
   */
  lockWaitMs?: number;
}

/** How much longer than the server's statement_timeout the client waits for an answer. */
export const QUERY_TIMEOUT_MARGIN_MS = 2000;

const warnIdleError = (err: Error) =>
  console.warn(`[readlib] a PostgreSQL connection was lost (${err.message}); the next query opens a new one`);

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
      // statement_timeout is the server's: a server that stops answering on an open connection (a
      // partition, a frozen host) held requests with no limit (found by an audit). The client gives up
      // a little after the server would have, and TCP keepalive finds a dead peer while idle.
      ...(options.statementTimeoutMs
        ? { query_timeout: options.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS }
        : {}),
      keepAlive: true,
      ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
    });
    const lost = options.onIdleConnectionError ?? warnIdleError;
    pool.on('error', lost);
    // pg-pool listens for the errors of idle clients only (reported above): a connection lost while a
    // query ran on it (a server restart, pg_terminate_backend) emitted 'error' with no listener, which
    // ended the process (found by an audit). Its query fails by itself, as a 503 the request log shows,
    // and the pool drops the dead client, so this listener only keeps the process alive.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    trackPool(db, () => ({
      dialect: 'postgres',
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
    return { db, dialect: 'postgres', destroy: () => db.destroy() };
  }
  if (config.file === ':memory:') return memoryDb();
  mkdirSync(dirname(config.file), { recursive: true });
  // two connections (sqlite-split-driver.ts) so reads go on while a write waits for the other service;
  // the writer serves most reads too, hence the larger cache, and waits for locks with timers
  const writer = openSqlite(config.file, { busyTimeoutMs: 0, cacheMiB: 64 });
  const reader = openSqlite(config.file, { busyTimeoutMs: DEFAULT_LOCK_WAIT_MS, cacheMiB: 16 });
  const fileSync = options.checkpoints === 'background' ? holdFile(config.file) : undefined;
  const checkpointer = fileSync ? startWalCheckpointer(config.file, { syncFd: fileSync.fd }) : undefined;
  if (checkpointer) {
    for (const c of [reader, writer]) c.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
    // the service goes on (the backstop still checkpoints), but a full disk or an I/O error must be seen
    checkpointer.onEvent((e) => {
      if (e.type === 'error') console.error(`readlib: background WAL checkpoint failed: ${e.message}`);
    });
  }
  const gauges = { waiting: 0 };
  const db = new Kysely<Database>({
    dialect: new SplitSqliteDialect({
      gauges,
      reader: withStatementCache(reader),
      writer: withStatementCache(writer),
      lockWaitMs: options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS,
      close: () => {
        reader.close();
        writer.close();
      },
    }),
  });
  trackPool(db, () => ({
    dialect: 'sqlite',
    total: (reader.open ? 1 : 0) + (writer.open ? 1 : 0),
    waiting: gauges.waiting,
  }));
  // the wal-index header moves with every commit; where it cannot be read, the reader connection's
  // data_version does: it never writes, so it moves with every commit, this process's too
  const walIndex = holdWalIndex(config.file, reader);
  setCommitProbe(db, reader, walIndex?.fd);
  // started on the first long read (report screens): a service that makes none has no such thread
  const readWorker = new SqliteReadWorker(config.file);
  setReadWorker(db, readWorker);
  return {
    db,
    dialect: 'sqlite',
    ...(checkpointer ? { checkpointer } : {}),
    destroy: async () => {
      await checkpointer?.stop();
      await readWorker.close();
      await db.destroy();
      // last: closing them drops this process's locks on the files (held-file.ts)
      fileSync?.release();
      walIndex?.release();
    },
  };
}

/**
 * The wal-index (`<file>-shm`) of a file in WAL mode, for the commit probe; undefined if the file is not
 * in WAL mode (a file system without shared memory, where SQLite keeps its rollback journal: a stale
 * `-shm` left beside it would never change) or the wal-index cannot be opened.
 */
function holdWalIndex(file: string, connection: SQLite.Database): HeldFile | undefined {
  if (connection.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
  // a read first: a connection's first one creates and sets up the wal-index if no connection has yet
  connection.pragma('data_version');
  try {
    return holdFile(`${file}-shm`);
  } catch {
    return undefined;
  }
}

/** How long a SQLite write waits for another process's write lock by default (then 503). */
export const DEFAULT_LOCK_WAIT_MS = 5000;

function openSqlite(file: string, o: { busyTimeoutMs: number; cacheMiB: number }): SQLite.Database {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${o.busyTimeoutMs}`);
  // reads of a large catalogue: a large page cache and memory-mapped I/O instead of read() calls
  sqlite.pragma(`cache_size = -${o.cacheMiB * 1024}`);
  sqlite.pragma('mmap_size = 268435456');
  return sqlite;
}

/** An in-memory database is private to its connection: one connection, shared by reads and writes. */
function memoryDb(): DbHandle {
  const sqlite = new SQLite(':memory:');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) as never }),
  });
  trackPool(db, () => ({ dialect: 'sqlite', total: sqlite.open ? 1 : 0 }));
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}
