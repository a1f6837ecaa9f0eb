import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bookStats,
  createDb,
  createOperator,
  type DbConfig,
  type DbHandle,
  DEFAULT_CATEGORIES,
  findUserByOpenId,
  insertBook,
  listBooksAdmin,
  logSearches,
  operatorTokenVersion,
  recordView,
  saveRating,
  upsertUser,
  userRank,
} from '../src/index.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

// The lookups and writes every request makes are compiled once (compiled-once.ts); on PostgreSQL the
// services run them as named prepared statements, planned once per connection. One connection per
// handle here, so what it has prepared is what pg_prepared_statements shows to the next statement.
const postgres = (await testDialects()).find((d) => d.name === 'postgres');

describe.skipIf(!postgres)('prepared statements on PostgreSQL', () => {
  let setup: DbHandle & { config: DbConfig };
  let handle: DbHandle | undefined;
  beforeEach(async () => {
    setup = await postgres!.create();
  });
  afterEach(async () => {
    await handle?.destroy();
    handle = undefined;
    await setup.destroy();
  });

  const preparedOn = async (h: DbHandle) =>
    (
      await sql<{
        name: string;
        statement: string;
      }>`select name, statement from pg_prepared_statements`.execute(h.db)
    ).rows;

  it('the compiled-once statements are prepared once per connection and answer as before', async () => {
    const book = await insertBook(setup.db, sampleBook(), []);
    const user = await upsertUser(setup.db, { openId: 'p1', platform: 'wx' });
    handle = createDb(setup.config, { poolSize: 1 });
    const first = await recordView(handle.db, user.id, book.id, 100, 10);
    const again = await recordView(handle.db, user.id, book.id, 200, 10);
    expect(first?.stats.views).toBe(1);
    expect(again).toEqual({
      stats: await bookStats(setup.db, book.id),
      readers: [{ user_id: user.id, last_viewed_at: 200 }],
      rank: 0,
    });
    expect(await userRank(handle.db, user.id, book.id)).toBe(0);
    // the search log's one text, whatever its rows
    await logSearches(handle.db, [{ keyword: 'dune', openId: null, at: 1 }]);
    await logSearches(handle.db, [
      { keyword: 'emma', openId: 'p1', at: 2 },
      { keyword: 'dune', openId: null, at: 3 },
    ]);
    const prepared = await preparedOn(handle);
    expect(prepared.filter((p) => p.statement.includes('insert into search_log'))).toHaveLength(1);
    const view = prepared.filter((p) => p.statement.includes('insert into views'));
    const rank = prepared.filter((p) => p.statement.includes('from "ratings"'));
    // one each, however often they ran
    expect(view).toHaveLength(1);
    expect(rank).toHaveLength(1);
    expect(view[0]!.name).toMatch(/^readlib_\d+$/);
  });

  it('an administration request: the token check and the list pages with their totals are prepared, one text per kind of list', async () => {
    for (const title of ['Dune', 'Dune Messiah', 'Emma', 'Persuasion'])
      await insertBook(setup.db, sampleBook({ title }), []);
    const op = await createOperator(setup.db, {
      username: 'ops',
      password_hash: 'x',
      nickname: 'ops',
      avatar: '',
      roles: '["admin"]',
    });
    const byId = { field: 'id', dir: 'desc' } as const;
    const lists = async (db: DbHandle['db']) => [
      await listBooksAdmin(db, {}, byId, { offset: 0, limit: 2 }),
      await listBooksAdmin(db, {}, byId, { offset: 2, limit: 2 }),
      await listBooksAdmin(db, { title: 'dune' }, byId, { offset: 0, limit: 20 }),
      await listBooksAdmin(db, { title: 'emma' }, byId, { offset: 0, limit: 20 }),
      await listBooksAdmin(db, { category: DEFAULT_CATEGORIES[0] }, byId, { offset: 0, limit: 20 }),
      await listBooksAdmin(db, { category: DEFAULT_CATEGORIES[2] }, byId, { offset: 0, limit: 20 }),
    ];
    const unprepared = createDb(setup.config, { poolSize: 1, preparedStatements: false });
    const expected = await lists(unprepared.db);
    await unprepared.destroy();
    handle = createDb(setup.config, { poolSize: 1 });
    // the same answers, each kind twice with other values
    expect(await lists(handle.db)).toEqual(expected);
    expect(expected[2]!.total).toBe(2);
    expect(await operatorTokenVersion(handle.db, op.id)).toBe(0);
    expect(await operatorTokenVersion(handle.db, op.id + 1)).toBeUndefined();
    const prepared = (await preparedOn(handle)).map((p) => p.statement);
    const count = (part: string) => prepared.filter((text) => text.includes(part)).length;
    expect(count('"token_version"')).toBe(1);
    // each list page with its total, one text per kind: without a filter (the total: the counter),
    // by category (the total counted) and by title (the matches counted and paged in one statement)
    expect(count('order by "books"."id" desc')).toBe(3);
    expect(count('"total" from "books"')).toBe(3);
    expect(count('(select "value" from "counters"')).toBe(1);
    expect(count('(select count(*) as "n" from "books"')).toBe(1);
    expect(count('with "m" as materialized')).toBe(1);
  });

  it('a statement reading `*` is not prepared (a column added at run time would change its rows)', async () => {
    await upsertUser(setup.db, { openId: 'p2', platform: 'wx' });
    handle = createDb(setup.config, { poolSize: 1 });
    expect((await findUserByOpenId(handle.db, 'p2'))?.open_id).toBe('p2');
    expect((await preparedOn(handle)).filter((p) => p.statement.includes('"open_id" ='))).toEqual([]);
  });

  it('a migration changing the type of what a prepared statement returns: it is sent unprepared after', async () => {
    const book = await insertBook(setup.db, sampleBook(), []);
    const user = await upsertUser(setup.db, { openId: 'p4', platform: 'wx' });
    await saveRating(setup.db, user.id, book.id, 4);
    handle = createDb(setup.config, { poolSize: 1 });
    expect(await userRank(handle.db, user.id, book.id)).toBe(4);
    // another process migrates while this one serves (a rolling deploy)
    await sql`alter table ratings alter column rank type bigint`.execute(setup.db);
    expect(await userRank(handle.db, user.id, book.id)).toBe(4);
    expect(await userRank(handle.db, user.id, book.id)).toBe(4);
    // the same connection, which still has it prepared: the server refused it once, and is not asked again
    expect((await preparedOn(handle)).filter((p) => p.statement.includes('from "ratings"'))).toHaveLength(1);
  });

  it('preparedStatements: false sends every statement unprepared (a pooler that does not keep them)', async () => {
    const book = await insertBook(setup.db, sampleBook(), []);
    const user = await upsertUser(setup.db, { openId: 'p3', platform: 'wx' });
    handle = createDb(setup.config, { poolSize: 1, preparedStatements: false });
    await recordView(handle.db, user.id, book.id, 100, 10);
    expect(await userRank(handle.db, user.id, book.id)).toBe(0);
    expect(await preparedOn(handle)).toEqual([]);
  });
});
