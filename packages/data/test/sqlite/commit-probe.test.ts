import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  commitStamp,
  commitStampSource,
  createDb,
  insertBook,
  saveShelf,
  upsertUser,
} from '../../src/index.js';
import { setCommitProbe } from '../../src/sqlite/commit-probe.js';
import { sampleBook, testDialects } from '../../src/testing/index.js';

const dialects = await testDialects();

/** The probe reads once per turn of the event loop: a read after this one is a fresh one. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sqliteOnly = dialects.filter((d) => d.name === 'sqlite');

describe.each(sqliteOnly)(
  'commitStamp on a $name file (what kept answers are checked against)',
  (dialect) => {
    let h: Awaited<ReturnType<typeof dialect.create>>;
    beforeEach(async () => {
      h = await dialect.create();
    });
    afterEach(async () => h.destroy());

    it('stays while only reads happen', async () => {
      // the wal-index header, not a statement: what the rest of these tests check
      expect(commitStampSource(h.db)).toBe('wal-index');
      const before = commitStamp(h.db);
      expect(before).toEqual(expect.any(Number));
      await h.db.selectFrom('books').selectAll().execute();
      await sql`select count(*) from users`.execute(h.db);
      expect(commitStamp(h.db)).toBe(before);
    });

    it("moves with a commit of this handle's own writer, a transaction's and a single statement's", async () => {
      const s0 = commitStamp(h.db);
      const user = await upsertUser(h.db, { openId: 'o-1', nickName: 'n' }, 1);
      const s1 = commitStamp(h.db);
      expect(s1).not.toBe(s0);
      const book = await h.db.transaction().execute((trx) => insertBook(trx, sampleBook(), []));
      const s2 = commitStamp(h.db);
      expect(s2).not.toBe(s1);
      await saveShelf(h.db, user.id, book.id, 2);
      expect(commitStamp(h.db)).not.toBe(s2);
    });

    it('moves with a commit of another process (another handle on the same file)', async () => {
      if (h.config.dialect !== 'sqlite') throw new Error('unreachable');
      const other = createDb(h.config);
      try {
        const before = commitStamp(h.db);
        await insertBook(other.db, sampleBook(), []);
        expect(commitStamp(h.db)).not.toBe(before);
      } finally {
        await other.destroy();
      }
    });

    it('moves with a commit of a separate OS process, and stays while one only reads', async () => {
      if (h.config.dialect !== 'sqlite') throw new Error('unreachable');
      const file = h.config.file;
      // a plain better-sqlite3 connection in a child process: its own mapping of the wal-index
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      const child = (sqlText: string) =>
        execFileSync(process.execPath, [
          '-e',
          `const db = new (require(process.argv[1]))(process.argv[2]); db.pragma('busy_timeout = 5000'); db.exec(process.argv[3]); db.close();`,
          driver,
          file,
          sqlText,
        ]);
      await h.db.selectFrom('books').select('id').execute();
      const before = commitStamp(h.db);
      child('select count(*) from books');
      await nextTurn();
      expect(commitStamp(h.db)).toBe(before);
      child('create table scratch (x integer); insert into scratch values (1)');
      // held for the rest of the turn in which it was read: requests of one turn share one read
      expect(commitStamp(h.db)).toBe(before);
      await nextTurn();
      const after = commitStamp(h.db);
      expect(after).not.toBe(before);
      await nextTurn();
      expect(commitStamp(h.db)).toBe(after);
    });

    it('reads again within the turn once this process commits, whichever handle committed', async () => {
      if (h.config.dialect !== 'sqlite') throw new Error('unreachable');
      const other = createDb(h.config);
      try {
        const s0 = commitStamp(h.db);
        // no turn between: the commit of this process's writer releases what the turn held
        await insertBook(other.db, sampleBook(), []);
        const s1 = commitStamp(h.db);
        expect(s1).not.toBe(s0);
        await other.db.selectFrom('books').select('id').execute();
        expect(commitStamp(h.db)).toBe(s1);
      } finally {
        await other.destroy();
      }
    });

    it('stays through a rolled-back transaction', async () => {
      const before = commitStamp(h.db);
      await expect(
        h.db.transaction().execute(async (trx) => {
          await insertBook(trx, sampleBook(), []);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(commitStamp(h.db)).toBe(before);
    });

    it('is undefined once the handle is closed, and for a transaction', async () => {
      if (h.config.dialect !== 'sqlite') throw new Error('unreachable');
      await h.db.transaction().execute(async (trx) => {
        expect(commitStamp(trx)).toBeUndefined();
      });
      const other = createDb(h.config);
      await other.db.selectFrom('books').select('id').execute();
      await other.destroy();
      expect(commitStamp(other.db)).toBeUndefined();
    });
  },
);

describe('commitStamp read from a wal-index header (sqlite.org/walformat.html)', () => {
  // a header as SQLite writes it: version 3007000, isInit 1, a frame count; both copies alike
  function header(frames: number): Buffer {
    const copy = Buffer.alloc(48);
    copy.writeUInt32LE(3007000, 0);
    copy[12] = 1;
    copy.writeUInt32LE(frames, 16);
    return Buffer.concat([copy, copy, Buffer.alloc(40)]);
  }
  let dir: string;
  let shm: string;
  let fd: number;
  let connection: SQLite.Database;
  const db = {};
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-probe-'));
    shm = join(dir, 'fake-shm');
    writeFileSync(shm, header(5));
    fd = openSync(shm, 'r');
    connection = new SQLite(':memory:');
  });
  afterEach(() => {
    connection.close();
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  // a read in a turn of its own each time: within one turn the first read is held
  const fresh = async () => {
    await nextTurn();
    return commitStamp(db);
  };

  it('stays while the header stays, and moves once for each new header', async () => {
    setCommitProbe(db, connection, fd);
    expect(commitStampSource(db)).toBe('wal-index');
    const s0 = await fresh();
    expect(await fresh()).toBe(s0);
    writeFileSync(shm, header(9));
    const s1 = await fresh();
    expect(s1).not.toBe(s0);
    expect(await fresh()).toBe(s1);
  });

  it('moves on every read while the two copies differ (a header being written), then settles', async () => {
    setCommitProbe(db, connection, fd);
    const s0 = await fresh();
    const torn = header(5);
    torn.writeUInt32LE(6, 48 + 16); // the second copy is written first
    writeFileSync(shm, torn);
    const s1 = await fresh();
    const s2 = await fresh();
    expect(new Set([s0, s1, s2]).size).toBe(3);
    writeFileSync(shm, header(6));
    const s3 = await fresh();
    expect([s0, s1, s2]).not.toContain(s3);
    expect(await fresh()).toBe(s3);
  });

  it('moves while the header is not set up, or short', async () => {
    setCommitProbe(db, connection, fd);
    const s0 = await fresh();
    const unset = header(5);
    unset[12] = 0;
    unset[48 + 12] = 0;
    writeFileSync(shm, unset);
    const s1 = await fresh();
    expect(s1).not.toBe(s0);
    expect(await fresh()).not.toBe(s1);
    writeFileSync(shm, header(5).subarray(0, 60));
    const s2 = await fresh();
    expect(await fresh()).not.toBe(s2);
  });

  it('asks data_version instead where the file holds no header of the known version', async () => {
    const other = header(5);
    other.writeUInt32LE(3100000, 0);
    other.writeUInt32LE(3100000, 48);
    writeFileSync(shm, other);
    setCommitProbe(db, connection, fd);
    expect(commitStampSource(db)).toBe('data_version');
    expect(await fresh()).toEqual(expect.any(Number));
  });
});

describe('commitStamp where the dialect tells nothing', () => {
  it('is undefined for an in-memory SQLite database', async () => {
    const h = createDb({ dialect: 'sqlite', file: ':memory:' });
    try {
      expect(commitStamp(h.db)).toBeUndefined();
    } finally {
      await h.destroy();
    }
  });

  it.runIf(dialects.some((d) => d.name === 'postgres'))('is undefined for PostgreSQL', async () => {
    const h = await dialects.find((d) => d.name === 'postgres')!.create();
    try {
      expect(commitStamp(h.db)).toBeUndefined();
    } finally {
      await h.destroy();
    }
  });
});
