import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createDb,
  type DbHandle,
  isDatabaseUnavailable,
  migrateToLatest,
  poolStats,
  WriteBatcher,
} from '../../src/index.js';
import { sampleUser } from '../../src/testing/index.js';

// Another service process holding the write lock, played by a thread with its own connection: it
// takes the lock, writes, and commits after `ms` by its own clock, whatever this thread is doing.
const HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file);
db.exec('begin immediate');
db.prepare("update counters set value = value + 1 where name = 'catalog_version'").run();
parentPort.postMessage('locked');
setTimeout(() => { db.exec('commit'); db.close(); parentPort.postMessage('released'); }, workerData.ms);
`;
const sqliteModule = createRequire(import.meta.url).resolve('better-sqlite3');

/** Resolves once the other "process" holds the lock; `released` settles when it has committed. */
async function holdWriteLock(file: string, ms: number) {
  const worker = new Worker(HOLDER, { eval: true, workerData: { module: sqliteModule, file, ms } });
  const released = new Promise<void>((resolve, reject) => {
    worker.on('message', (m) => m === 'released' && resolve());
    worker.on('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return { released };
}

/** How late a 10 ms timer fires: the event loop's responsiveness at that moment. */
async function timerLag(): Promise<number> {
  const t = performance.now();
  await new Promise((r) => setTimeout(r, 10));
  return performance.now() - t - 10;
}

const dir = mkdtempSync(join(tmpdir(), 'readlib-split-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const open: DbHandle[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.destroy();
});

async function fresh(lockWaitMs?: number) {
  const file = join(dir, `split-${n++}.db`);
  const h = createDb({ dialect: 'sqlite', file }, lockWaitMs === undefined ? {} : { lockWaitMs });
  open.push(h);
  await migrateToLatest(h.db);
  return { db: h.db, file };
}

const user = sampleUser;
const usersNamed = async (db: DbHandle['db'], openId: string) =>
  (await db.selectFrom('users').select('id').where('open_id', '=', openId).execute()).length;

// docs/reliability.md "SQLite file locked by another process": a write waits for the lock with timers on
// its own connection, so the service keeps reading (from the last committed state) meanwhile.
describe('SQLite: reads go on while a write waits for another process', () => {
  it('a transaction and a single statement wait for the lock; reads and timers are served meanwhile', async () => {
    const { db, file } = await fresh();
    const { released } = await holdWriteLock(file, 1500);
    const inTrx = db.transaction().execute((trx) => trx.insertInto('users').values(user('a')).execute());
    const alone = db.insertInto('users').values(user('b')).execute();
    const t = performance.now();
    const lags: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < 10; i++) {
      lags.push(await timerLag());
      const r = performance.now();
      expect(await usersNamed(db, 'a')).toBe(0); // not committed yet
      reads.push(performance.now() - r);
    }
    expect(performance.now() - t).toBeLessThan(1000); // the lock is still held
    // the metrics gauge: one write waits for the lock, the other for this process's writer
    expect(poolStats(db)).toEqual({ dialect: 'sqlite', total: 2, waiting: 2 });
    // generous bounds for a loaded CI machine: a stopped loop would be late by the whole 1.5 s hold
    expect(Math.max(...lags)).toBeLessThan(250);
    expect(Math.max(...reads)).toBeLessThan(250);
    await Promise.all([inTrx, alone, released]);
    expect(await usersNamed(db, 'a')).toBe(1);
    expect(await usersNamed(db, 'b')).toBe(1);
    expect(poolStats(db)?.waiting).toBe(0);
  });

  it('a lock held past lockWaitMs: SQLITE_BUSY (unavailable) after the wait, nothing written', async () => {
    const { db, file } = await fresh(300);
    const { released } = await holdWriteLock(file, 1200);
    const t = performance.now();
    const failed = db
      .transaction()
      .execute((trx) => trx.insertInto('users').values(user('late')).execute())
      .then(
        () => undefined,
        (err: unknown) => ({ err, ms: performance.now() - t }),
      );
    expect(await timerLag()).toBeLessThan(150);
    const outcome = await failed;
    expect(outcome).toBeDefined();
    expect((outcome!.err as { code: string }).code).toBe('SQLITE_BUSY');
    expect(isDatabaseUnavailable(outcome!.err)).toBe(true);
    expect(outcome!.ms).toBeGreaterThanOrEqual(290);
    expect(outcome!.ms).toBeLessThan(1100);
    await released;
    expect(await usersNamed(db, 'late')).toBe(0);
    // the writer is free again: the next write goes through at once
    await db.insertInto('users').values(user('late')).execute();
    expect(await usersNamed(db, 'late')).toBe(1);
  });

  it('writes queued behind a lock all give up lockWaitMs after they were asked for, not one after another', async () => {
    const { db, file } = await fresh(300);
    const { released } = await holdWriteLock(file, 1500);
    const t = performance.now();
    const ends = await Promise.all(
      [1, 2, 3].map((i) =>
        db
          .transaction()
          .execute((trx) =>
            trx
              .insertInto('users')
              .values(user(`q${i}`))
              .execute(),
          )
          .then(
            () => ({ ok: true, ms: performance.now() - t }),
            (err: { code?: string }) => ({ ok: false, code: err.code, ms: performance.now() - t }),
          ),
      ),
    );
    for (const e of ends) {
      expect(e).toMatchObject({ ok: false, code: 'SQLITE_BUSY' });
      expect(e.ms).toBeLessThan(700);
    }
    await released;
  });

  it('the group commit: a batch that cannot get the lock fails whole; the writer is free afterwards', async () => {
    const { db, file } = await fresh(200);
    const batcher = new WriteBatcher(db);
    const { released } = await holdWriteLock(file, 600);
    const outcomes = await Promise.allSettled(
      ['g1', 'g2'].map((o) => batcher.run((trx) => trx.insertInto('users').values(user(o)).execute())),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(isDatabaseUnavailable((outcomes[0] as PromiseRejectedResult).reason)).toBe(true);
    await released;
    await batcher.run((trx) => trx.insertInto('users').values(user('g3')).execute());
    expect([await usersNamed(db, 'g1'), await usersNamed(db, 'g3')]).toEqual([0, 1]);
  });
});

describe('SQLite: which connection a statement runs on', () => {
  it('a transaction reads its own writes; other reads see only what is committed', async () => {
    const { db } = await fresh();
    let seenOutside = -1;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user('t')).execute();
      expect(await usersNamed(trx, 't')).toBe(1);
      seenOutside = await usersNamed(db, 't');
    });
    expect(seenOutside).toBe(0);
    expect(await usersNamed(db, 't')).toBe(1);
  });

  it('a transaction that has only read already holds the write lock (begin immediate)', async () => {
    const { db, file } = await fresh();
    const other = new SQLite(file, { timeout: 0 });
    try {
      await db.transaction().execute(async (trx) => {
        await usersNamed(trx, 'nobody');
        expect(() => other.exec('begin immediate')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
      });
      other.exec('begin immediate');
      other.exec('rollback');
    } finally {
      other.close();
    }
  });

  it('raw SQL: reads, writes and a CTE that writes all take effect where they should', async () => {
    const { db } = await fresh();
    await sql`insert into users (open_id, platform, created_at, updated_at) values ('raw', 'wx', 1, 1)`.execute(
      db,
    );
    const { rows } = await sql<{ n: number }>`select count(*) as n from users where open_id = 'raw'`.execute(
      db,
    );
    expect(rows[0]!.n).toBe(1);
    await sql`with x as (select 'cte' as o) insert into users (open_id, platform, created_at, updated_at) select o, 'wx', 1, 1 from x`.execute(
      db,
    );
    expect(await usersNamed(db, 'cte')).toBe(1);
    // a transaction's raw statements stay on its connection: rolled back, nothing remains
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`delete from users where open_id = 'raw'`.execute(trx);
        expect(await usersNamed(trx, 'raw')).toBe(0);
        throw new Error('undo');
      })
      .catch(() => {});
    expect(await usersNamed(db, 'raw')).toBe(1);
  });

  it('streams a select', async () => {
    const { db } = await fresh();
    await db
      .insertInto('users')
      .values([user('s1'), user('s2'), user('s3')])
      .execute();
    const seen: string[] = [];
    for await (const row of db.selectFrom('users').select('open_id').orderBy('open_id').stream())
      seen.push(row.open_id);
    expect(seen).toEqual(['s1', 's2', 's3']);
  });
});
