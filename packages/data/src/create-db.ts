import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';
import type { DialectName } from './dialect.js';
import { trackPool } from './pool-stats.js';
import { closeWithin } from './postgres/client-socket.js';
import {
  CommitListener,
  type CommitListenerOptions,
  CommitTellingDialect,
} from './postgres/commit-notifications.js';
import { PreparingClient } from './postgres/prepared-statements.js';
import { setNotifiedCommitStamp } from './sqlite/commit-probe.js';
import { openSqliteFile, openSqliteMemory } from './sqlite/open-db.js';
import type { WalCheckpointer } from './sqlite/wal-checkpointer.js';

export { DEFAULT_LOCK_WAIT_MS } from './sqlite/open-db.js';

export type DbConfig =
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; url: string; searchPath?: string };

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  destroy(): Promise<void>;
  /** the background checkpointer of a SQLite file opened with `checkpoints: 'background'` */
  checkpointer?: WalCheckpointer;
  /** PostgreSQL opened with `commitNotifications`: where its commit stamps come from */
  commitListener?: CommitListener;
}

export interface CreateDbOptions {
  /** PostgreSQL pool size (default 10) */
  poolSize?: number;
  /**
   * SQLite files: where write-ahead-log checkpoints run. 'inline' (default): inside the commit that
   * crosses 1,000 pages, SQLite's own behaviour, right for short-lived tools. 'background': on a worker
   * thread, so a service's event loop never waits for one (see sqlite/README.md).
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
   * PostgreSQL: listen for the commits of every process (LISTEN/NOTIFY on a connection of its own), so
   * that `commitStamp` tells when what readers keep may have changed, as SQLite's wal-index does, and a
   * reader keeps its answers instead of reading the versions at every request. For the services; a
   * one-shot tool does not need it. `onLost` is told once when listening stops (it starts again by
   * itself), `onRestored` when it listens again.
   */
  commitNotifications?: Omit<CommitListenerOptions, 'client'>;
  /**
   * SQLite files: how long a write waits for the write lock another process holds (default
   * DEFAULT_LOCK_WAIT_MS), then fails with SQLITE_BUSY (a 503 in the services). The wait does not stop reads.
   */
  lockWaitMs?: number;
  /**
   * PostgreSQL: run the compiled-once statements (the lookups every request makes) as named prepared
   * statements, planned once per connection (default true). Off for a pooler that does not keep them
   * (PgBouncer before 1.21, or without `max_prepared_statements`).
   */
  preparedStatements?: boolean;
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
    // where and as whom every connection is, the pool's and the commit listener's alike
    const connection: pg.ClientConfig = {
      connectionString: config.url,
      keepAlive: true,
      ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
    };
    const pool = new pg.Pool({
      ...connection,
      max: options.poolSize ?? 10,
      types: pgTypes as any,
      ...(options.preparedStatements === false ? {} : { Client: PreparingClient }),
      ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      // statement_timeout is the server's: a server that stops answering on an open connection (a
      // partition, a frozen host) would hold requests with no limit. The client gives up a little
      // after the server would have, and TCP keepalive finds a dead peer while idle.
      ...(options.statementTimeoutMs
        ? { query_timeout: options.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS }
        : {}),
    });
    const lost = options.onIdleConnectionError ?? warnIdleError;
    pool.on('error', lost);
    // pg-pool listens for the errors of idle clients only (reported above): a connection lost while a
    // query ran on it (a server restart, pg_terminate_backend) emits 'error', which with no listener
    // ends the process. Its query fails by itself, as a 503 the request log shows,
    // and the pool drops the dead client, so this listener only keeps the process alive.
    // The pool's connections are also kept, for destroy to close those a query still holds.
    const open = new Set<pg.PoolClient>();
    pool.on('connect', (client) => {
      client.on('error', () => {});
      open.add(client);
    });
    pool.on('remove', (client) => open.delete(client));
    const listener = options.commitNotifications
      ? new CommitListener({ client: connection, ...options.commitNotifications })
      : undefined;
    const db = new Kysely<Database>({
      dialect: listener
        ? new CommitTellingDialect({ pool }, () => listener.moved())
        : new PostgresDialect({ pool }),
    });
    if (listener) setNotifiedCommitStamp(db, listener);
    trackPool(db, () => ({
      dialect: 'postgres',
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
    return {
      db,
      dialect: 'postgres',
      destroy: async () => {
        await listener?.close();
        // the pool ends once every connection is back: one a query still holds past the grace has its
        // socket closed, which fails the query and returns the connection
        await closeWithin(db.destroy(), () => open);
      },
      ...(listener ? { commitListener: listener } : {}),
    };
  }
  if (config.file === ':memory:') return openSqliteMemory();
  return openSqliteFile(config.file, options);
}
