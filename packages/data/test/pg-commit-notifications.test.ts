import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  commitStamp,
  commitStampSource,
  createDb,
  createOperator,
  type Database,
  type DbConfig,
  type DbHandle,
  insertBook,
  logSearch,
  logSearches,
  operatorsStamp,
  recordView,
  recordViews,
  resetOperatorPassword,
  saveShelf,
  upsertUser,
} from '../src/index.js';
import { CommitTellingDialect, hearsItself } from '../src/postgres/commit-notifications.js';
import { sampleBook, TcpRelay, testDialects } from '../src/testing/index.js';

// PostgreSQL has no commit counter to read without a round trip: a service's handle listens for the
// commits of every process (the triggers of migration 2026-11-26T1200 notify at commit) and counts
// its own writes. Here `other` stands for another process (the admin API of another replica, the CLI)
// and `service` for a reader's handle.
const postgres = (await testDialects()).find((d) => d.name === 'postgres');

/** as long as a notification may take to arrive here */
const HEARD = { timeout: 15_000, interval: 10 };

describe.skipIf(!postgres)('commit notifications on PostgreSQL', () => {
  let other: DbHandle & { config: DbConfig };
  let service: DbHandle;
  beforeEach(async () => {
    other = await postgres!.create();
    service = createDb(other.config, { commitNotifications: {} });
    await service.commitListener!.ready;
  });
  afterEach(async () => {
    await service?.destroy();
    await other?.destroy();
  });

  it('a commit of another process moves the stamp once heard; reads and the logs do not move it', async () => {
    const before = commitStamp(service.db);
    expect(before).toBeTypeOf('number');
    expect(commitStampSource(service.db)).toBe('notifications');
    await sql`select count(*) from books`.execute(service.db);
    expect(commitStamp(service.db)).toBe(before);
    // a search log alone notifies nothing; a registration (one transaction) notifies once
    await logSearch(other.db, 'dune', null, 1);
    await upsertUser(other.db, { openId: 'o1', platform: 'wx' });
    await vi.waitFor(() => expect(commitStamp(service.db)).not.toBe(before), HEARD);
    await sleep(100);
    expect(commitStamp(service.db)).toBe(before! + 1);
    // a view (its log row, the reader's row and the counts in one transaction): once more
    const book = await insertBook(other.db, sampleBook(), []);
    const user = await upsertUser(other.db, { openId: 'o2', platform: 'wx' });
    const seen = commitStamp(service.db);
    await recordView(other.db, user.id, book.id, 5);
    await vi.waitFor(() => expect(commitStamp(service.db)).not.toBe(seen), HEARD);
  });

  it("this process's write moves the stamp as soon as it returns, a transaction's at its commit", async () => {
    const book = await insertBook(other.db, sampleBook(), []);
    const user = await upsertUser(other.db, { openId: 'o1', platform: 'wx' });
    await sleep(100);
    const before = commitStamp(service.db)!;
    await saveShelf(service.db, user.id, book.id, 1);
    expect(commitStamp(service.db)).toBeGreaterThan(before);
    let inside = 0;
    await service.db.transaction().execute(async (trx) => {
      await saveShelf(trx, user.id, book.id, 2);
      inside = commitStamp(service.db)!;
    });
    expect(commitStamp(service.db)).toBeGreaterThan(inside);
    // a transaction that only read moves nothing (once the notifications of the writes are heard)
    await sleep(100);
    const read = commitStamp(service.db)!;
    await service.db.transaction().execute((trx) => sql`select 1`.execute(trx));
    await sleep(100);
    expect(commitStamp(service.db)).toBe(read);
  });

  it('what moves the stamp: a write inside a `with` (pg counts no rows for it), not the search log alone', async () => {
    const book = await insertBook(other.db, sampleBook(), []);
    const user = await upsertUser(other.db, { openId: 'w1', platform: 'wx' });
    // the dialect alone, with no listener: what it tells is all that moves
    const config = other.config as { url: string; searchPath?: string };
    const pool = new pg.Pool({
      connectionString: config.url,
      ...(config.searchPath ? { options: `-c search_path=${config.searchPath}` } : {}),
    });
    let moves = 0;
    const db = new Kysely<Database>({ dialect: new CommitTellingDialect({ pool }, () => moves++) });
    try {
      await sql`select count(*) from books`.execute(db);
      expect(moves).toBe(0);
      await recordViews(db, [{ userId: user.id, bookId: book.id, at: 2 }]);
      expect(moves).toBe(1);
      // the search log writes no row readers keep: alone or as a transaction of its own, no move
      await logSearches(db, [{ keyword: 'dune', openId: null, at: 3 }]);
      await db.transaction().execute((trx) => logSearches(trx, [{ keyword: 'emma', openId: null, at: 4 }]));
      expect(moves).toBe(1);
      // beside a write that counts, the transaction's commit moves it (as well as that write)
      await db.transaction().execute(async (trx) => {
        await logSearches(trx, [{ keyword: 'dune', openId: null, at: 5 }]);
        await saveShelf(trx, user.id, book.id, 6);
      });
      expect(moves).toBe(3);
    } finally {
      await db.destroy();
    }
  });

  it("the operators' stamp moves with a commit that changes an operator, not with the commits readers cause", async () => {
    await createOperator(other.db, {
      username: 'ops',
      password_hash: 'x',
      nickname: 'ops',
      avatar: '',
      roles: '[]',
    });
    await sleep(100);
    const before = operatorsStamp(service.db)!;
    expect(before).toBeTypeOf('number');
    // a registration, a book and a view of another process: heard, and not an operator's change
    const commits = commitStamp(service.db);
    const user = await upsertUser(other.db, { openId: 'o1', platform: 'wx' });
    const book = await insertBook(other.db, sampleBook(), []);
    await recordView(other.db, user.id, book.id, 5);
    await vi.waitFor(() => expect(commitStamp(service.db)).toBeGreaterThanOrEqual(commits! + 3), HEARD);
    await sleep(100);
    expect(operatorsStamp(service.db)).toBe(before);
    // a password reset by another process (the CLI): heard
    expect(await resetOperatorPassword(other.db, 'ops', 'y')).toBe(true);
    await vi.waitFor(() => expect(operatorsStamp(service.db)).toBe(before + 1), HEARD);
    // this process's own write moves it at once, whatever it wrote
    await saveShelf(service.db, user.id, book.id, 1);
    expect(operatorsStamp(service.db)).toBe(before + 2);
  });

  it('is unknown while the listening connection is down, and moves when it listens again', async () => {
    const before = commitStamp(service.db)!;
    const operatorsBefore = operatorsStamp(service.db)!;
    const pid = service.commitListener!.backendPid!;
    await sql`select pg_terminate_backend(${pid})`.execute(other.db);
    await vi.waitFor(() => expect(commitStamp(service.db)).toBeUndefined(), HEARD);
    expect(operatorsStamp(service.db)).toBeUndefined();
    // a commit made while nobody listened is not missed: listening again moves the stamps
    await upsertUser(other.db, { openId: 'unheard', platform: 'wx' });
    await vi.waitFor(() => expect(commitStamp(service.db)).toBeDefined(), HEARD);
    expect(commitStamp(service.db)).toBeGreaterThan(before);
    expect(operatorsStamp(service.db)).toBeGreaterThan(operatorsBefore);
    expect(service.commitListener!.backendPid).not.toBe(pid);
  });

  it('tells of an outage once, however many attempts fail while it lasts, and tells when it listens again', async () => {
    const target = new URL((other.config as { url: string }).url);
    const relay = new TcpRelay(target.hostname, Number(target.port || 5432));
    await relay.up();
    const lost: string[] = [];
    let restored = 0;
    const relayed = new URL(target);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    const watched = createDb({ ...other.config, url: relayed.toString() } as DbConfig, {
      commitNotifications: { onLost: (err) => lost.push(err.message), onRestored: () => restored++ },
    });
    try {
      await watched.commitListener!.ready;
      expect(commitStamp(watched.db)).toBeDefined();
      await relay.down();
      await vi.waitFor(() => expect(commitStamp(watched.db)).toBeUndefined(), HEARD);
      // attempts at 250, 500 and 1000 ms fail while the relay is down
      await sleep(2000);
      expect(lost).toHaveLength(1);
      expect(restored).toBe(0);
      await relay.up();
      await vi.waitFor(() => expect(commitStamp(watched.db)).toBeDefined(), {
        timeout: 10_000,
        interval: 50,
      });
      expect([lost.length, restored]).toEqual([1, 1]);
    } finally {
      await watched.destroy();
      await relay.down();
    }
  }, 20_000);

  it('listens only once it hears its own notification (a pooler in transaction mode would not pass it on)', async () => {
    const url = (other.config as { url: string }).url;
    const deaf = new pg.Client({ connectionString: url });
    await deaf.connect();
    try {
      // a connection that never listened stands for one whose notifications go elsewhere
      await expect(hearsItself(deaf, 'readlib_commit:nowhere')).rejects.toThrow(/did not hear/);
      await deaf.query(`listen "readlib_commit:here"`);
      await expect(hearsItself(deaf, 'readlib_commit:here')).resolves.toBeUndefined();
    } finally {
      await deaf.end();
    }
  });

  it('a handle without notifications has no stamp, as before', async () => {
    expect(commitStamp(other.db)).toBeUndefined();
    expect(commitStampSource(other.db)).toBeUndefined();
    expect(operatorsStamp(other.db)).toBeUndefined();
  });
});
