import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/**
 * Long reads of the report screens (grouping a month of views, seconds at a large catalogue) run
 * on a worker thread with its own connection to the SQLite file. better-sqlite3 is synchronous, so on
 * the service's connection they would hold its event loop, and every request would wait; here only the
 * caller waits. WAL lets the worker read the last committed state while the service writes.
 *
 * Plain JavaScript evaluated from a string, as the WAL checkpointer, so it runs the same under tsx,
 * vitest and a build. The connection is query-only: the worker cannot change the database.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('query_only = 1');
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -16384');
db.pragma('mmap_size = 268435456');
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (!statement.reader) throw Object.assign(new Error('the read worker runs reads only'), { code: 'READ_ONLY' });
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String((err && err.message) || err), code: err && err.code } });
  }
});
`;

interface Pending {
  resolve: (rows: unknown[]) => void;
  reject: (err: Error) => void;
}

export class SqliteReadWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly file: string) {}

  /** The rows of a read, from the worker's connection. */
  all<R>(query: CompiledQuery<R>): Promise<R[]> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<R[]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      // a worker waited on keeps the process up; an idle one does not
      worker.ref();
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.failAll(new Error('the database is closed'));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, driver } });
    worker.unref();
    worker.on(
      'message',
      (m: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (this.pending.size === 0) worker.unref();
        if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
        else p.resolve(m.rows ?? []);
      },
    );
    // a worker that cannot open the file or dies fails what waits on it; the next read starts another
    const gone = (err: Error) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the read worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

const workers = new WeakMap<object, SqliteReadWorker>();

/** Set by createDb for a SQLite file: where the long reads of `db` run. */
export function setReadWorker(db: object, worker: SqliteReadWorker): void {
  workers.set(db, worker);
}

interface ReadQuery<R> {
  compile(): CompiledQuery<R>;
  execute(): Promise<R[]>;
}

/**
 * A long read: on the read worker of a SQLite file's `db`, else (PostgreSQL, which runs it off the
 * event loop anyway; an in-memory file; a transaction) where `query` was built.
 */
export function longRead<R>(db: object, query: ReadQuery<R>): Promise<R[]> {
  const worker = workers.get(db);
  return worker ? worker.all(query.compile()) : query.execute();
}
