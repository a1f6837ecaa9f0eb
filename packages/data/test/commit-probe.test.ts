import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitStamp, createDb, insertBook, saveShelf, upsertUser } from '../src/index.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();
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
