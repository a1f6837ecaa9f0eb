import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
} from 'kysely';
import { commitsMade } from './commit-probe.js';
import { Mutex } from './mutex.js';
import type { StatementSource } from './statement-cache.js';

export interface SplitSqliteConfig {
  /** serves the statements that cannot change the database while the writer is taken */
  reader: StatementSource;
  /** serves transactions, every other statement, and reads while it is free; `busy_timeout = 0` */
  writer: StatementSource;
  /** how long a write waits for another process's write lock before SQLITE_BUSY is thrown */
  lockWaitMs: number;
  close(): void;
  /** kept up to date by the driver: statements waiting for the writer, this process's or the lock */
  gauges: { waiting: number };
}

/**
 * Two connections to one SQLite file (WAL). With a single connection every read waits while a
 * transaction is open, and a write that waits for another process's lock does so inside SQLite's busy
 * handler, which sleeps the thread: the whole service, reads included, stopped for up to busy_timeout.
 * Here the writer fails fast on a held lock and the wait is a series of timers, while reads go to the
 * second connection and are served from the last committed state.
 *
 * Reads still run on the writer whenever it is free (nearly always: a group commit holds it for a few
 * microtasks). A connection drops its whole page cache and memory map when it starts reading after
 * another connection committed, so a reader connection that read everything would pay that after every
 * commit of the writer.
 */
export class SplitSqliteDialect extends SqliteDialect {
  readonly #config: SplitSqliteConfig;

  constructor(config: SplitSqliteConfig) {
    super({ database: config.reader as never });
    this.#config = config;
  }

  override createDriver(): Driver {
    return new SplitSqliteDriver(this.#config);
  }
}

class SplitSqliteDriver implements Driver {
  readonly writerMutex = new Mutex();

  constructor(readonly config: SplitSqliteConfig) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  // `immediate` (README.md, what must hold)
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    this.config.close();
  }
}

/**
 * What Kysely holds between acquire and release. It takes the writer (and its mutex, which keeps
 * this process's transactions apart) only when it begins a transaction or meets a statement that may
 * write. Until then each read runs on whichever connection is free, without taking anything:
 * better-sqlite3 runs a statement to completion synchronously.
 */
class RoutedConnection implements DatabaseConnection {
  #onWriter = false;
  /** when this connection asked for the writer: the lock wait counts from here, queueing included */
  #askedAt = 0;

  constructor(private readonly driver: SplitSqliteDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { reader, writer } = this.driver.config;
    if (this.#onWriter) return afterWrite(run(writer, query));
    const read =
      SelectQueryNode.is(query.query) || (query.query.kind === 'RawNode' && isPlainRead(reader, query.sql));
    if (read) {
      // synchronous from the check to the end of the statement: no transaction can begin in between
      if (this.driver.writerMutex.locked) return run(reader, query);
      try {
        return run(writer, query);
      } catch (err) {
        // a read meets a lock only in rare moments (another connection recovering the log); the
        // writer does not wait for locks, the reader does (busy_timeout)
        if (!isLockHeld(err)) throw err;
        return run(reader, query);
      }
    }
    await this.takeWriter();
    return afterWrite(await this.waitingForLock(() => run(writer, query)));
  }

  // rows are yielded across turns of the event loop: on the reader a later statement would share the
  // open read snapshot, so a stream has the writer to itself
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('only select queries can be streamed');
    await this.takeWriter();
    for (const row of this.driver.config.writer.prepare(query.sql).iterate(query.parameters as unknown[]))
      yield { rows: [row as R] };
  }

  async begin(): Promise<void> {
    await this.takeWriter();
    await this.waitingForLock(() => this.driver.config.writer.prepare('begin immediate').run());
  }

  release(): void {
    if (!this.#onWriter) return;
    this.#onWriter = false;
    this.driver.writerMutex.unlock();
  }

  private async takeWriter(): Promise<void> {
    if (this.#onWriter) return;
    this.#askedAt = Date.now();
    const gauges = this.driver.config.gauges;
    gauges.waiting++;
    try {
      await this.driver.writerMutex.lock();
    } finally {
      gauges.waiting--;
    }
    this.#onWriter = true;
  }

  /**
   * Runs `attempt` until it does not meet another process's lock, or lockWaitMs has passed since the
   * writer was asked for: writes queued behind one that waits fail with it, not lockWaitMs each later.
   */
  private async waitingForLock<T>(attempt: () => T): Promise<T> {
    const deadline = this.#askedAt + this.driver.config.lockWaitMs;
    const gauges = this.driver.config.gauges;
    for (let i = 0; ; i++) {
      try {
        return attempt();
      } catch (err) {
        const left = deadline - Date.now();
        if (!isLockHeld(err) || left <= 0) throw err;
        gauges.waiting++;
        await sleep(Math.min(BACKOFF_MS[Math.min(i, BACKOFF_MS.length - 1)]!, left));
        gauges.waiting--;
      }
    }
  }
}

/** A statement on the writer may have committed (a write outside a transaction, or `commit` itself). */
function afterWrite<T>(result: T): T {
  commitsMade();
  return result;
}

// the sleeps of SQLite's own busy handler, in milliseconds; the last repeats
const BACKOFF_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

/** A statement that failed because another connection holds the write lock; it did nothing. */
function isLockHeld(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_RECOVERY';
}

/**
 * Raw SQL may say anything; it runs on the reader only when SQLite itself calls it read-only and it is
 * a query, not a transaction-control or pragma statement (read-only too, but bound to a connection).
 * Checked on the reader: it is never busy with a stream, so it can always prepare.
 */
function isPlainRead(reader: StatementSource, sqlText: string): boolean {
  return /^\s*(select|with|values)\b/i.test(sqlText) && reader.prepare(sqlText).readonly;
}

function run<R>(source: StatementSource, query: CompiledQuery): QueryResult<R> {
  const stmt = source.prepare(query.sql);
  const params = query.parameters as unknown[];
  if (stmt.reader) return { rows: stmt.all(params) as R[] };
  const { changes, lastInsertRowid } = stmt.run(params);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type { SQLite };
