import { ControlledTransaction } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type BookRow,
  bookStats,
  countShelf,
  type DbHandle,
  directWrites,
  insertBook,
  isForeignKeyViolation,
  logSearch,
  logSearches,
  MergedWrite,
  recordView,
  recordViews,
  type SearchLogEntry,
  saveRating,
  saveShelf,
  upsertUser,
  WriteBatcher,
  type Writes,
} from '../src/index.js';
import { sampleBook, sentToPostgres, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

// Group commit of the reader writes: same results as one transaction per write.
describe.each(dialects)('WriteBatcher on $name', (dialect) => {
  let h: DbHandle;
  let book: BookRow;
  let users: number[];
  beforeEach(async () => {
    h = await dialect.create();
    book = await insertBook(h.db, sampleBook(), []);
    users = [];
    for (let i = 0; i < 5; i++) users.push((await upsertUser(h.db, { openId: `u${i}`, platform: 'wx' })).id);
  });
  afterEach(async () => h.destroy());

  it('commits the writes of one turn in one transaction, each with its effects (views, ratings, log)', async () => {
    const batcher = new WriteBatcher(h.db);
    const begin = vi.spyOn(h.db, 'startTransaction');
    await Promise.all([
      ...users.map((u, i) => batcher.run((db) => recordView(db, u, book.id, 1000 + i))),
      ...users.map((u, i) => batcher.run((db) => saveRating(db, u, book.id, 1 + i))),
      batcher.run((db) => logSearch(db, 'dune', null, 1000)),
      ...users.map((u) => batcher.run((db) => saveShelf(db, u, book.id, 1000))),
    ]);
    expect(begin).toHaveBeenCalledTimes(1);
    expect((await bookStats(h.db, book.id)).readers).toBe(5);
    expect(await bookStats(h.db, book.id)).toMatchObject({ ratingNum: 5, ratingAvg: 3 });
    expect(await countShelf(h.db)).toBe(5);
  });

  it('a lone write runs without a batch transaction on PostgreSQL (whole by itself), in one on SQLite', async () => {
    const batcher = new WriteBatcher(h.db);
    const begin = vi.spyOn(h.db, 'startTransaction');
    const sent = await sentToPostgres(() => batcher.run((db) => recordView(db, users[0]!, book.id, 1000)));
    expect(begin).toHaveBeenCalledTimes(dialect.name === 'postgres' ? 0 : 1);
    if (dialect.name === 'postgres') {
      expect(sent.map((s) => s.text)).not.toContain('begin');
      expect(sent).toHaveLength(1);
    }
    expect(await bookStats(h.db, book.id)).toMatchObject({ views: 1, readers: 1 });
    // a lone write that fails (a book that is not there): its caller gets the error, nothing is written
    await expect(batcher.run((db) => saveShelf(db, users[1]!, 999_999, 1))).rejects.toSatisfy(
      isForeignKeyViolation,
    );
    expect(await countShelf(h.db)).toBe(0);
  });

  it('rolls back a failing write alone: its caller gets the error, the others are committed', async () => {
    const batcher = new WriteBatcher(h.db);
    const boom = new Error('refused');
    const results = await Promise.allSettled([
      batcher.run((db) => saveShelf(db, users[0]!, book.id, 1)),
      batcher.run(async (db) => {
        await saveShelf(db, users[1]!, book.id, 1);
        throw boom;
      }),
      // a constraint violation inside the database (no such user) fails the same way
      batcher.run((db) => saveShelf(db, 999_999, book.id, 1)),
      batcher.run((db) => saveShelf(db, users[2]!, book.id, 1)),
      // counted writes: the batch is run again after the failure, and each must count once
      batcher.run((db) => recordView(db, users[3]!, book.id, 10)),
      batcher.run((db) => saveRating(db, users[3]!, book.id, 4)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect((results[1] as PromiseRejectedResult).reason).toBe(boom);
    expect(await countShelf(h.db, users[0])).toBe(1);
    expect(await countShelf(h.db, users[1])).toBe(0);
    expect(await countShelf(h.db, users[2])).toBe(1);
    expect(await bookStats(h.db, book.id)).toEqual({ readers: 1, ratingNum: 1, ratingAvg: 4, views: 1 });
    const views = await h.db.selectFrom('views').select('id').where('book_id', '=', book.id).execute();
    expect(views).toHaveLength(1);
  });

  it('uses no savepoint when every write of a batch succeeds, one per write when one fails', async () => {
    const savepoint = vi.spyOn(ControlledTransaction.prototype, 'savepoint');
    const batcher = new WriteBatcher(h.db);
    await Promise.all(users.map((u) => batcher.run((db) => saveShelf(db, u, book.id, 1))));
    expect(savepoint).not.toHaveBeenCalled();
    await Promise.allSettled([
      batcher.run((db) => recordView(db, users[0]!, book.id, 2)),
      batcher.run((db) => saveShelf(db, 999_999, book.id, 2)),
    ]);
    expect(savepoint).toHaveBeenCalledTimes(2);
    savepoint.mockRestore();
  });

  it('takes writes that arrive during a commit into the next batch, and drain waits for them', async () => {
    const batcher = new WriteBatcher(h.db, { maxBatch: 2 });
    const begin = vi.spyOn(h.db, 'startTransaction');
    const first = users.map((u) => batcher.run((db) => saveShelf(db, u, book.id, 1)));
    await batcher.drain();
    await Promise.all(first);
    // five writes, at most two per transaction (the fifth alone: on PostgreSQL without one)
    expect(begin).toHaveBeenCalledTimes(dialect.name === 'postgres' ? 2 : 3);
    expect(await countShelf(h.db)).toBe(5);
    const late = batcher.run((db) => recordView(db, users[0]!, book.id, 5));
    await batcher.drain();
    await late;
    expect((await bookStats(h.db, book.id)).readers).toBe(1);
  });

  it('returns what the write returns', async () => {
    const batcher = new WriteBatcher(h.db);
    const [added, again] = await Promise.all([
      batcher.run((db) => saveShelf(db, users[0]!, book.id, 1)),
      batcher.run((db) => saveShelf(db, users[0]!, book.id, 2)),
    ]);
    expect([added, again]).toEqual([true, false]);
  });

  describe('MergedWrite', () => {
    const searched = (keyword: string, at: number): SearchLogEntry => ({ keyword, openId: null, at });
    /** the search log merged, with the number of items of each work */
    const countedLog = (maxItems?: number) => {
      const calls: number[] = [];
      const merged = new MergedWrite<SearchLogEntry>((db, items) => {
        calls.push(items.length);
        return logSearches(db, items);
      }, maxItems);
      return { calls, merged };
    };
    const logged = async () =>
      (await h.db.selectFrom('search_log').select('keyword').orderBy('id').execute()).map((r) => r.keyword);

    it('makes the items handed while its work waits one work: one call, every caller answered after the commit', async () => {
      const batcher = new WriteBatcher(h.db);
      const { calls, merged } = countedLog();
      const answered = ['dune', 'Dune', 'emma'].map((k, i) => merged.add(batcher, searched(k, i)));
      // in the same batch as other writes
      const other = batcher.run((db) => saveShelf(db, users[0]!, book.id, 1));
      await Promise.all([...answered, other]);
      expect(calls).toEqual([3]);
      expect(await logged()).toEqual(['dune', 'dune', 'emma']);
      // handed after that work started: the next one
      await merged.add(batcher, searched('late', 9));
      expect(calls).toEqual([3, 1]);
    });

    it("answers each caller with the work's answer for its own item", async () => {
      const batcher = new WriteBatcher(h.db);
      const calls: number[] = [];
      const viewed = new MergedWrite<number, string>(async (db, bookIds) => {
        calls.push(bookIds.length);
        const answers = await recordViews(
          db,
          bookIds.map((bookId, i) => ({ userId: users[i]!, bookId, at: 10 + i })),
        );
        return answers.map((a) => (typeof a === 'string' ? a : `views ${a.stats.views}`));
      });
      const gone = 1_000_000;
      const answers = await Promise.all([book.id, gone, book.id].map((id) => viewed.add(batcher, id)));
      expect(calls).toEqual([3]);
      const recorded = dialect.name === 'sqlite' ? 'recorded' : 'views 2';
      expect(answers).toEqual([recorded, 'gone', recorded]);
    });

    it('starts another work when one holds its most items, and one per item on direct writes', async () => {
      const batcher = new WriteBatcher(h.db);
      const { calls, merged } = countedLog(2);
      await Promise.all(['a1', 'a2', 'a3', 'a4', 'a5'].map((k, i) => merged.add(batcher, searched(k, i))));
      expect(calls).toEqual([2, 2, 1]);
      const direct = directWrites(h.db);
      await Promise.all(['b1', 'b2'].map((k, i) => merged.add(direct, searched(k, i))));
      expect(calls).toEqual([2, 2, 1, 1, 1]);
      expect(await logged()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'b2']);
    });

    it('drains direct writes handed over without being awaited, failed ones too', async () => {
      const direct = directWrites(h.db);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const settled: string[] = [];
      void direct.run(async (db) => {
        await held;
        await logSearches(db, [{ keyword: 'late', openId: null, at: 1 }]);
        settled.push('late');
      });
      void direct
        .run(async () => {
          await held;
          throw new Error('refused');
        })
        .catch(() => settled.push('refused'));
      const drained = direct.drain().then(() => settled.push('drained'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(settled).toEqual([]);
      release();
      await drained;
      expect(settled.slice(-1)).toEqual(['drained']);
      expect(settled.sort()).toEqual(['drained', 'late', 'refused']);
      expect(await logged()).toEqual(['late']);
    });

    it('takes no item into a work whose batch failed before running it', async () => {
      const { calls, merged } = countedLog();
      const refused = new Error('no transaction');
      let failing = true;
      const batcher = new WriteBatcher(h.db);
      const flaky: Writes = {
        run: (work) => (failing ? Promise.reject(refused) : batcher.run(work)),
        drain: () => batcher.drain(),
      };
      await expect(merged.add(flaky, searched('lost', 1))).rejects.toBe(refused);
      failing = false;
      await merged.add(flaky, searched('kept', 2));
      expect(calls).toEqual([1]);
      expect(await logged()).toEqual(['kept']);
    });

    it('rejects every caller of a failed work, and only them', async () => {
      const batcher = new WriteBatcher(h.db);
      const boom = new Error('refused');
      const merged = new MergedWrite<SearchLogEntry>(async (db, items) => {
        await logSearches(db, items);
        if (items.some((i) => i.keyword === 'bad')) throw boom;
      });
      const results = await Promise.allSettled([
        merged.add(batcher, searched('good', 1)),
        merged.add(batcher, searched('bad', 2)),
        batcher.run((db) => saveShelf(db, users[0]!, book.id, 1)),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
      expect((results[0] as PromiseRejectedResult).reason).toBe(boom);
      // the failed work took nothing with it; the shelf write committed
      expect(await logged()).toEqual([]);
      expect(await countShelf(h.db)).toBe(1);
      await merged.add(batcher, searched('again', 3));
      expect(await logged()).toEqual(['again']);
    });
  });
});
