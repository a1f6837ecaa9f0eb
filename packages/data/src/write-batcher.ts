import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/** Runs `work` in the caller's transaction when `db` is one (a write batch), else in a new one. */
export function inTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
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
 * costs more than the statements it commits (SQLite WAL at 100k books: ~300 µs of a ~400 µs view
 * write), so writes that arrive while a batch is being written wait for the next batch and commit
 * together. A write that fails is rolled back alone and rejects only its caller (see commit()).
 * Callers are answered after the commit, so durability is what it was with one transaction per
 * write; a failed commit rejects every write of the batch.
 */
export class WriteBatcher {
  private queue: Queued[] = [];
  private flushing: Promise<void> | undefined;
  private readonly maxBatch: number;

  constructor(
    private readonly db: Kysely<Database>,
    opts: WriteBatcherOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 128;
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
    if (batch.length > 1 && (await this.commitTogether(batch))) return;
    await this.commitEach(batch);
  }

  /** false (and nothing committed) when a write failed; a failed commit rejects the whole batch. */
  private async commitTogether(batch: Queued[]): Promise<boolean> {
    const values: unknown[] = [];
    let trx: Awaited<ReturnType<ReturnType<Kysely<Database>['startTransaction']>['execute']>>;
    try {
      trx = await this.db.startTransaction().execute();
    } catch (err) {
      // no transaction (the lock was not had within busy_timeout): trying again would wait as long again
      for (const item of batch) item.reject(err);
      return true;
    }
    try {
      for (const item of batch) values.push(await item.work(trx));
    } catch {
      await trx
        .rollback()
        .execute()
        .catch(() => {});
      return false;
    }
    try {
      await trx.commit().execute();
    } catch (err) {
      if (!trx.isCommitted && !trx.isRolledBack)
        await trx
          .rollback()
          .execute()
          .catch(() => {});
      for (const item of batch) item.reject(err);
      return true;
    }
    for (const [i, item] of batch.entries()) item.resolve(values[i]);
    return true;
  }

  private async commitEach(batch: Queued[]): Promise<void> {
    const results: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
    let trx: Awaited<ReturnType<ReturnType<Kysely<Database>['startTransaction']>['execute']>> | undefined;
    try {
      trx = await this.db.startTransaction().execute();
      for (const item of batch) {
        if (batch.length === 1) {
          results.push({ ok: true, value: await item.work(trx) });
          continue;
        }
        const sp = await trx.savepoint('w').execute();
        try {
          const value = await item.work(sp);
          await sp.releaseSavepoint('w').execute();
          results.push({ ok: true, value });
        } catch (err) {
          await sp.rollbackToSavepoint('w').execute();
          await sp.releaseSavepoint('w').execute();
          results.push({ ok: false, err });
        }
      }
      await trx.commit().execute();
    } catch (err) {
      if (trx && !trx.isCommitted && !trx.isRolledBack)
        await trx
          .rollback()
          .execute()
          .catch(() => {});
      for (const item of batch) item.reject(err);
      return;
    }
    batch.forEach((item, i) => {
      const r = results[i]!;
      if (r.ok) item.resolve(r.value);
      else item.reject(r.err);
    });
  }
}
