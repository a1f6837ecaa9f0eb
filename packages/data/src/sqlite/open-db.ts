import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { trackPool } from '../pool-stats.js';
import { setCommitProbe } from './commit-probe.js';
import { type HeldFile, holdFile } from './held-file.js';
import { ImmediateSqliteDialect } from './immediate-dialect.js';
import { SqliteReadWorker, setReadWorker } from './read-worker.js';
import { SplitSqliteDialect } from './split-driver.js';
import { withStatementCache } from './statement-cache.js';
import {
  BACKSTOP_AUTOCHECKPOINT_PAGES,
  startWalCheckpointer,
  type WalCheckpointer,
} from './wal-checkpointer.js';

/** How long a SQLite write waits for another process's write lock by default (then 503). */
export const DEFAULT_LOCK_WAIT_MS = 5000;

/** What createDb hands back for a SQLite database. */
export interface SqliteHandle {
  db: Kysely<Database>;
  dialect: 'sqlite';
  destroy(): Promise<void>;
  checkpointer?: WalCheckpointer;
}

export interface SqliteFileOptions {
  /** 'background': WAL checkpoints on a worker thread (wal-checkpointer.ts); default inline, SQLite's own */
  checkpoints?: 'inline' | 'background';
  /** how long a write waits for another process's write lock (default DEFAULT_LOCK_WAIT_MS) */
  lockWaitMs?: number;
}

/**
 * A database file this opens first is created readable by its owner alone (0600), whatever the umask:
 * it holds the operators' password hashes and every reader's openId, shelf and views. SQLite gives its
 * -wal and -shm files the database's mode. A file that exists keeps the mode its owner gave it.
 */
function createPrivately(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** A SQLite file with everything in this folder wired together (see README.md). */
export function openSqliteFile(file: string, options: SqliteFileOptions = {}): SqliteHandle {
  mkdirSync(dirname(file), { recursive: true });
  createPrivately(file);
  // two connections (split-driver.ts) so reads go on while a write waits for the other service;
  // the writer serves most reads too, hence the larger cache, and waits for locks with timers
  const writer = openSqlite(file, { busyTimeoutMs: 0, cacheMiB: 64 });
  const reader = openSqlite(file, { busyTimeoutMs: DEFAULT_LOCK_WAIT_MS, cacheMiB: 16 });
  const fileSync = options.checkpoints === 'background' ? holdFile(file) : undefined;
  const checkpointer = fileSync ? startWalCheckpointer(file, { syncFd: fileSync.fd }) : undefined;
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
  const walIndex = holdWalIndex(file, reader);
  setCommitProbe(db, reader, walIndex?.fd);
  // started on the first long read (report screens): a service that makes none has no such thread
  const readWorker = new SqliteReadWorker(file);
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
export function openSqliteMemory(): SqliteHandle {
  const sqlite = new SQLite(':memory:');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) as never }),
  });
  trackPool(db, () => ({ dialect: 'sqlite', total: sqlite.open ? 1 : 0 }));
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}
