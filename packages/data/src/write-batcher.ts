import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { dialectOf } from './dialect.js';

/** Runs `work` in the caller's transaction when `db` is one (a write batch), else in a new one. */
export function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** How a service commits its small writes: grouped (WriteBatcher) or one by one (directWrites). */
export interface Writes {
  /** `work` is one repository write, whole by itself (directWrites runs it as it is) */
  run<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /** resolves when every write handed over so far has committed or failed */
  drain(): Promise<void>;
}

/** Each write on its own, as the repository function makes it: for one-shot callers and tests. */
export function directWrites(db: Kysely<Database>): Writes {
  // the writes not yet settled: a caller may hand one over without awaiting it (a search's line)
  const running = new Set<Promise<unknown>>();
  return {
    run: (work) => {
      const written = work(db);
      running.add(written);
      const settled = () => running.delete(written);
      written.then(settled, settled);
      return written;
    },
    drain: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}

/**
 * Writes of one kind made one work over the items of every caller who hands one while it waits: a
 * search logged by 30 readers in the same moment is one multi-row insert and one count per keyword,
 * not 30 of each. A work waits from the first item until its Writes start it (WriteBatcher: the next
 * batch; directWrites: at once, so one item each); items handed after it started go to the next one.
 * Every caller of a work is answered when it commits, with the work's answer for its item (the
 * work returns one per item, in order, or nothing), or rejected with its error, as with `run`.
 * The waiting work is kept per Writes, so one MergedWrite serves every app of a process.
 */
export class MergedWrite<I, R = void> {
  private readonly waiting = new WeakMap<Writes, { items: I[]; done: Promise<readonly R[] | void> }>();

  constructor(
    private readonly work: (db: Kysely<Database>, items: readonly I[]) => Promise<readonly R[] | void>,
    /** most items of one work (a statement's parameters are bounded) */
    private readonly maxItems = 256,
  ) {}

  async add(writes: Writes, item: I): Promise<R> {
    const open = this.waiting.get(writes);
    if (open && open.items.length < this.maxItems) {
      const at = open.items.push(item) - 1;
      return (await open.done)?.[at] as R;
    }
    const items = [item];
    const job: { items: I[]; done: Promise<readonly R[] | void> } = { items, done: Promise.resolve() };
    this.waiting.set(writes, job);
    const started = () => {
      if (this.waiting.get(writes) === job) this.waiting.delete(writes);
    };
    job.done = writes.run((db) => {
      // started: later items wait for the next work (a batch run again calls this again: same items)
      started();
      return this.work(db, items);
    });
    // a batch that failed before running it (its begin) settles it too: nothing may join it then
    job.done.then(started, started);
    return (await job.done)?.[0] as R;
  }
}

type Work = (trx: Kysely<Database>) => Promise<unknown>;
interface Queued {
  work: Work;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface WriteBatcherOptions {
  /** most writes committed by one transaction (default 128) */
  maxBatch?: number;
}

/**
 * Group commit for the small writes of the reader API (views, shelf, ratings, search log). A commit
 * costs more than the small statements it commits, so writes that arrive while a batch is being written wait for the next batch and commit
 * together. A write that fails is rolled back alone and rejects only its caller (see commit()).
 * Callers are answered after the commit, so durability is that of one transaction per
 * write; a failed commit rejects every write of the batch.
 */
export class WriteBatcher implements Writes {
  private queue: Queued[] = [];
  private flushing: Promise<void> | undefined;
  private readonly maxBatch: number;
  /**
   * PostgreSQL: a batch of one write runs on its own, without a begin and a commit around it (two
   * round trips, which a reader waits for). Every repository write is whole by itself, as directWrites
   * runs it (one statement, or its own transaction). Writes of one kind merged (MergedWrite) are often
   * a batch's only work. On SQLite the batch's transaction is what takes the write lock: kept.
   */
  private readonly loneRunsAlone: boolean;

  constructor(
    private readonly db: Kysely<Database>,
    opts: WriteBatcherOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 128;
    this.loneRunsAlone = dialectOf(db) === 'postgres';
  }

  run<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      // the first write of a quiet period starts a batch on the next turn, so writes of the same
      // turn join it; later ones queue behind the batch being written
      this.flushing ??= new Promise<void>((done) => setImmediate(done)).then(() => this.flushAll());
    });
  }

  /** Resolves when every write queued so far is committed (or has failed). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flushAll(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.commit(batch);
      }
    } finally {
      this.flushing = undefined;
    }
  }

  /**
   * A batch commits in one transaction without savepoints first: a savepoint and its release are two
   * more statements per write (two more round trips each on PostgreSQL), and writes rarely fail. When
   * one does, that attempt is rolled back whole and the batch is run again with a savepoint per write,
   * so only the failing write fails and no write takes effect twice.
   */
  private async commit(batch: Queued[]): Promise<void> {
    if (batch.length === 1 && this.loneRunsAlone) {
      const [lone] = batch as [Queued];
      await lone.work(this.db).then(lone.resolve, lone.reject);
      return;
    }
    if ((await this.attempt(batch, false)) === 'retry') await this.attempt(batch, true);
  }

  /** 'retry' when a write of several failed without savepoints: nothing committed, nobody answered. */
  private async attempt(batch: Queued[], savepoints: boolean): Promise<'done' | 'retry'> {
    const results: Settled[] = [];
    let trx: Trx | undefined;
    let working = false;
    try {
      trx = await this.db.startTransaction().execute();
      working = true;
      for (const item of batch)
        results.push(
          savepoints ? await inSavepoint(trx, item.work) : { ok: true, value: await item.work(trx) },
        );
      working = false;
      await trx.commit().execute();
    } catch (err) {
      if (trx && !trx.isCommitted && !trx.isRolledBack)
        await trx
          .rollback()
          .execute()
          .catch(() => {});
      // a lone write fails alone anyway; a failed begin or commit would fail the same way again
      if (working && !savepoints && batch.length > 1) return 'retry';
      for (const item of batch) item.reject(err);
      return 'done';
    }
    for (const [i, item] of batch.entries()) {
      const r = results[i]!;
      if (r.ok) item.resolve(r.value);
      else item.reject(r.err);
    }
    return 'done';
  }
}

type Trx = Awaited<ReturnType<ReturnType<Kysely<Database>['startTransaction']>['execute']>>;
type Settled = { ok: true; value: unknown } | { ok: false; err: unknown };

/** One write in its own savepoint: a failure undoes that write alone and is returned, not thrown. */
async function inSavepoint(trx: Trx, work: Work): Promise<Settled> {
  const sp = await trx.savepoint('w').execute();
  try {
    const value = await work(sp);
    await sp.releaseSavepoint('w').execute();
    return { ok: true, value };
  } catch (err) {
    await sp.rollbackToSavepoint('w').execute();
    await sp.releaseSavepoint('w').execute();
    return { ok: false, err };
  }
}
