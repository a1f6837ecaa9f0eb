import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle, insertBook } from '../../src/index.js';
import { longRead } from '../../src/sqlite/read-worker.js';
import { sampleBook, testDialects } from '../../src/testing/index.js';

const sqlite = (await testDialects()).find((d) => d.name === 'sqlite')!;

/** A read that keeps SQLite busy for a while (a few hundred ms here): a count up to `n`. */
const slowCount = (h: DbHandle, n: number) =>
  h.db
    .withRecursive('c(x)', (db) =>
      db
        .selectNoFrom(sql<number>`1`.as('x'))
        .unionAll((d) => d.selectFrom('c').select(sql<number>`x + 1`.as('x')).where('x', '<', n)),
    )
    .selectFrom('c')
    .select((eb) => eb.fn.countAll<number>().as('n'));

// The report screens' long reads run on a worker thread
// with its own connection to the SQLite file, so the service's event loop goes on meanwhile.
describe('long reads on the read worker (SQLite file)', () => {
  let h: DbHandle;
  beforeEach(async () => {
    h = await sqlite.create();
  });
  afterEach(async () => h.destroy());

  it("answers as the service's connection does, and sees what it committed", async () => {
    for (const title of ['Alpha', 'Beta']) await insertBook(h.db, sampleBook({ title }), []);
    const titles = () => h.db.selectFrom('books').select(['id', 'title']).orderBy('id');
    expect(await longRead(h.db, titles())).toEqual(await titles().execute());
    await insertBook(h.db, sampleBook({ title: 'Gamma' }), []);
    expect((await longRead(h.db, titles())).map((r) => r.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('leaves the event loop free while it reads (the same read on the service blocks it)', async () => {
    const ticksDuring = async (read: () => Promise<unknown>) => {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      await read();
      clearInterval(timer);
      return ticks;
    };
    const n = 3_000_000;
    expect(await ticksDuring(() => slowCount(h, n).execute())).toBe(0);
    expect(await ticksDuring(() => longRead(h.db, slowCount(h, n)))).toBeGreaterThan(0);
    expect(await longRead(h.db, slowCount(h, 1000))).toEqual([{ n: 1000 }]);
  });

  it('refuses a write, and passes on SQLite errors with their code', async () => {
    await expect(
      longRead(h.db, h.db.insertInto('categories').values({ name: 'X', created_at: 1 })),
    ).rejects.toThrow(/reads only/);
    const err = (await longRead(h.db, h.db.selectFrom('no_such_table' as 'books').selectAll()).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error & { code?: string };
    expect(err).toBeInstanceOf(Error);
    expect([err.message, err.code]).toEqual(['no such table: no_such_table', 'SQLITE_ERROR']);
  });

  it('is used for files only: an in-memory database and a transaction read where they are', async () => {
    const memory = createDb({ dialect: 'sqlite', file: ':memory:' });
    const q = memory.db.selectNoFrom(sql<number>`1`.as('one'));
    expect(await longRead(memory.db, q)).toEqual([{ one: 1 }]);
    await memory.destroy();
    await h.db.transaction().execute(async (trx) => {
      await trx.insertInto('categories').values({ name: 'Only in trx', created_at: 1 }).execute();
      const names = await longRead(
        trx,
        trx.selectFrom('categories').select('name').where('name', '=', 'Only in trx'),
      );
      expect(names).toEqual([{ name: 'Only in trx' }]);
    });
  });

  it('fails reads after the database is closed', async () => {
    const other = await sqlite.create();
    await other.destroy();
    await expect(longRead(other.db, other.db.selectFrom('books').select('id'))).rejects.toThrow(/closed/);
  });
});
