import { NO_MIGRATIONS, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertSchemaCurrent,
  bookStats,
  categoryCounts,
  createDb,
  DAY_MS,
  type DbHandle,
  engagedBookIds,
  insertBook,
  MigrationError,
  migrateToLatest,
  recentReaders,
  recordView,
  rollUpViewDays,
  schemaState,
  searchBooks,
  searchFacet,
  upsertUser,
  viewDaysOffset,
  viewDaysUpto,
} from '../src/index.js';
import {
  migrateRacingDrops,
  refusingPostgresUrl,
  sampleBook,
  testDialects,
  testMigrator,
} from '../src/testing/index.js';

const dialects = await testDialects();

describe.each(dialects)('migrations and schema checks on $name', (dialect) => {
  let h: DbHandle & { config: { dialect: string; searchPath?: string } };
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());
  const schema = () => (h.config.dialect === 'postgres' ? h.config.searchPath?.split(',')[0] : undefined);

  it('is current after migrateToLatest, and migrating again is a no-op', async () => {
    expect((await schemaState(h.db, schema())).state).toBe('current');
    await expect(migrateRacingDrops(h.db, schema())).resolves.toEqual([]);
    await expect(assertSchemaCurrent(h.db, schema())).resolves.toBeUndefined();
  });

  it('refuses a schema migrated by a newer build (ahead) and one not yet migrated (behind)', async () => {
    await h.db
      .insertInto('kysely_migration' as never)
      .values({ name: '2999-01-01T0000-future', timestamp: new Date().toISOString() } as never)
      .execute();
    expect((await schemaState(h.db, schema())).state).toBe('ahead');
    await expect(assertSchemaCurrent(h.db, schema())).rejects.toThrow(MigrationError);
    await expect(assertSchemaCurrent(h.db, schema())).rejects.toThrow(/newer version/);
    // migrate itself says so too (docs/deployment.md, upgrades), not Kysely's "corrupted migrations"
    await expect(migrateToLatest(h.db, schema())).rejects.toThrow(/newer version of this service/);
    await h.db.deleteFrom('kysely_migration' as never).execute();
    expect((await schemaState(h.db, schema())).state).toBe('empty');
    await expect(assertSchemaCurrent(h.db, schema())).rejects.toThrow(/pnpm cli migrate/);
  });

  it('fills the facet values from the books already there (2026-11-22T1600-book-values)', async () => {
    const m = testMigrator(h.db, schema());
    const down = await m.migrateTo('2026-11-22T1400-read-paths');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => r.migrationName)).toContain('2026-11-22T1600-book-values');
    const now = Date.now();
    const rows = ['Ann Leckie', 'Ann Leckie', 'N. K. Jemisin'].map((author, i) => ({
      ...sampleBook({ author, publisher: i === 2 ? 'Orbit' : '' }),
      pos: i + 1,
      grams: '',
      created_at: now,
      updated_at: now,
    }));
    await h.db.insertInto('books').values(rows).execute();
    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect(await searchFacet(h.db, 'ann', 'author')).toEqual([{ value: 'Ann Leckie', n: 2 }]);
    expect(await searchFacet(h.db, 'je', 'author')).toEqual([{ value: 'N. K. Jemisin', n: 1 }]);
    expect(await searchFacet(h.db, 'orb', 'publisher')).toEqual([{ value: 'Orbit', n: 1 }]);
  });

  it('counts the readers already recorded into book_stats (2026-11-22T2200-reader-counts)', async () => {
    const m = testMigrator(h.db, schema());
    expect((await m.migrateTo('2026-11-22T2000-title-index')).error).toBeUndefined();
    const now = Date.now();
    const books = await h.db
      .insertInto('books')
      .values([1, 2, 3].map((pos) => ({ ...sampleBook(), pos, grams: '', created_at: now, updated_at: now })))
      .returning('id')
      .execute();
    const users = [];
    for (const i of [1, 2, 3]) users.push(await upsertUser(h.db, { openId: `o${i}`, platform: 'wx' }));
    const [b1, b2, b3] = books.map((b) => b.id) as [number, number, number];
    // b1 has a stats row (it was viewed and rated), b2 only readers, b3 nothing
    await h.db.insertInto('book_stats').values({ book_id: b1, views_total: 7, rating_num: 1 }).execute();
    await h.db
      .insertInto('book_readers')
      .values([
        ...users.map((u) => ({ book_id: b1, user_id: u.id, last_viewed_at: now })),
        { book_id: b2, user_id: users[0]!.id, last_viewed_at: now },
      ])
      .execute();
    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect((await bookStats(h.db, b1)).readers).toBe(3);
    expect((await bookStats(h.db, b2)).readers).toBe(1);
    expect((await bookStats(h.db, b3)).readers).toBe(0);
    // the other figures of the existing row are kept
    expect(await bookStats(h.db, b1)).toEqual({ readers: 3, ratingNum: 1, ratingAvg: 0, views: 7 });
  });

  it('counts the books already in each category (2026-11-22T2350-category-book-counts)', async () => {
    const m = testMigrator(h.db, schema());
    expect((await m.migrateTo('2026-11-22T2340-shelf-covering-index')).error).toBeUndefined();
    const now = Date.now();
    await h.db
      .insertInto('books')
      .values(
        [2, 2, 5].map((category_id, i) => ({
          ...sampleBook({ category_id }),
          pos: i + 1,
          grams: '',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    expect((await m.migrateToLatest()).error).toBeUndefined();
    const counts = new Map((await categoryCounts(h.db)).map((c) => [c.id, c.num]));
    expect([counts.get(2), counts.get(5), counts.get(1)]).toEqual([2, 1, 0]);
  });

  it('indexes the NFKC form of the texts already there (2026-11-23T1200-nfkc-search)', async () => {
    const m = testMigrator(h.db, schema());
    expect((await m.migrateTo('2026-11-23T1000-view-days')).error).toBeUndefined();
    const fullWidth = { title: 'ＳＱＬ入门', author: 'Ｂｅｎ Ｆｏｒｔａ', publisher: 'Plain Press' };
    const now = Date.now();
    await h.db
      .insertInto('books')
      .values(
        [fullWidth, { title: 'Plain Title', author: 'Plain Author', publisher: 'Plain Press' }].map(
          (text, i) => ({ ...sampleBook(text), pos: i + 1, grams: '', created_at: now, updated_at: now }),
        ),
      )
      .execute();
    await h.db
      .insertInto('book_values')
      .values({ field: 'author', value: fullWidth.author, books: 1, grams: '' } as never)
      .execute();
    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect((await searchBooks(h.db, 'sql入', { offset: 0, limit: 10 })).map((b) => b.title)).toEqual([
      fullWidth.title,
    ]);
    expect((await searchBooks(h.db, 'Plain T', { offset: 0, limit: 10 })).map((b) => b.title)).toEqual([
      'Plain Title',
    ]);
    expect(await searchFacet(h.db, 'forta', 'author')).toEqual([{ value: fullWidth.author, n: 1 }]);
    // only the texts NFKC changes carry a folded copy
    const folded = await h.db
      .selectFrom('books')
      .select(['title_nfkc', 'author_nfkc', 'publisher_nfkc'])
      .execute();
    expect(folded).toEqual(
      expect.arrayContaining([
        { title_nfkc: 'SQL入门', author_nfkc: 'Ben Forta', publisher_nfkc: null },
        { title_nfkc: null, author_nfkc: null, publisher_nfkc: null },
      ]),
    );
  });

  const trigramIndexes = async () => {
    const { rows } = await sql<{ name: string }>`
      select indexname as name from pg_indexes where schemaname = current_schema()
        and indexname like '%trgm' order by indexname`.execute(h.db);
    return rows.map((r) => r.name);
  };
  /** Statistics targets of the NFKC indexes' expressions and of the key columns. */
  const statisticsTargets = async () => {
    const { rows } = await sql<{ name: string; target: number }>`
      select case c.relkind when 'i' then c.relname else c.relname || '.' || a.attname end as name,
        a.attstattarget as target from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = current_schema()::regnamespace and a.attnum > 0 and not a.attisdropped
        and (c.relname like '%nfkc_trgm' or (c.relkind = 'r' and a.attname like '%\_key'))
      order by 1`.execute(h.db);
    return rows.map((r) => [r.name, Number(r.target)]);
  };
  const phrase = ['title', 'author', 'publisher'].map((c) => `books_${c}_phrase_trgm`);
  const nfkc = ['author', 'publisher', 'title'].map((c) => `books_${c}_nfkc_trgm`);

  it('PostgreSQL: indexes phrases across spaces and drops the indexes of the build before NFKC search; down restores them (2026-11-26T1400-phrase-trigrams)', async () => {
    if (h.dialect !== 'postgres') return; // SQLite's trigram FTS5 tables hold spaces already
    const plain = ['title', 'author', 'publisher'].map((c) => `books_${c}_trgm`);
    const m = testMigrator(h.db, schema());
    expect((await m.migrateTo('2026-11-26T1400-phrase-trigrams')).error).toBeUndefined();
    const current = await trigramIndexes();
    expect(current).toEqual(expect.arrayContaining([...phrase, 'book_values_value_phrase_trgm', ...nfkc]));
    expect(current.filter((i) => plain.includes(i) || i === 'book_values_value_trgm')).toEqual([]);
    // the previous build's indexes stay, without statistics this build would spend planning on
    expect(await statisticsTargets()).toEqual([
      ['book_values_value_nfkc_trgm', 0],
      ...nfkc.map((name) => [name, 0]),
    ]);

    expect((await m.migrateTo('2026-11-26T1200-commit-notifications')).error).toBeUndefined();
    const before = await trigramIndexes();
    expect(before).toEqual(expect.arrayContaining([...plain, 'book_values_value_trgm', ...nfkc]));
    expect(before.filter((i) => i.includes('phrase'))).toEqual([]);
    expect((await statisticsTargets()).map(([, target]) => target)).toEqual([-1, -1, -1, -1]);
  });

  it('PostgreSQL: stores each searched text as its trigram index reads it, lowered, and indexes that; down restores the NFKC indexes (2026-11-26T1600-search-keys)', async () => {
    if (h.dialect !== 'postgres') return; // SQLite's FTS5 tables are the search keys
    await insertBook(h.db, sampleBook({ title: 'Tales of Old Ember', author: 'ＡＮＮ Lee' }), []);
    const keys = async () =>
      (
        await sql<{ title_key: string; author_key: string }>`select title_key, author_key from books`.execute(
          h.db,
        )
      ).rows;
    const keyIndexes = [
      'book_values_value_key_trgm',
      ...['author', 'publisher', 'title'].map((c) => `books_${c}_key_trgm`),
    ];
    // the NFKC form, spaces swapped with ʬ, lower case: what the phrase indexes read, lowered
    expect(await keys()).toEqual([{ title_key: 'talesʬofʬoldʬember', author_key: 'annʬlee' }]);
    const latest = await trigramIndexes();
    expect(latest).toEqual(
      expect.arrayContaining([...keyIndexes, ...phrase, 'book_values_value_phrase_trgm']),
    );
    expect(latest.filter((i) => i.includes('nfkc'))).toEqual([]);
    // the keys keep no statistics: the statements hide their keywords from the planner (book_keys'
    // copies too, 2026-11-27T1800-book-keys)
    expect(await statisticsTargets()).toEqual([
      ['book_keys.author_key', 0],
      ['book_keys.title_key', 0],
      ['book_values.value_key', 0],
      ['books.author_key', 0],
      ['books.publisher_key', 0],
      ['books.title_key', 0],
    ]);
    expect((await searchBooks(h.db, 's OF old e', { offset: 0, limit: 10 })).map((b) => b.title)).toEqual([
      'Tales of Old Ember',
    ]);

    const m = testMigrator(h.db, schema());
    expect((await m.migrateTo('2026-11-26T1400-phrase-trigrams')).error).toBeUndefined();
    const before = await trigramIndexes();
    expect(before).toEqual(expect.arrayContaining([...phrase, 'book_values_value_nfkc_trgm', ...nfkc]));
    expect(before.filter((i) => i.includes('_key_'))).toEqual([]);
    expect(await statisticsTargets()).toEqual([
      ['book_values_value_nfkc_trgm', 0],
      ...nfkc.map((name) => [name, 0]),
    ]);
    // and up again: the keys are computed for the rows already there
    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect(await keys()).toEqual([{ title_key: 'talesʬofʬoldʬember', author_key: 'annʬlee' }]);
  });

  it('decisions.md §5: the days rolled up before are UTC days; down drops days of another offset (2026-11-23T1400-view-days-offset)', async () => {
    const m = testMigrator(h.db, schema());
    const before = '2026-11-23T1200-nfkc-search';
    const rolledUp = async () => h.db.selectFrom('view_days').select('views').execute();
    expect((await m.migrateTo(before)).error).toBeUndefined();
    await h.db.insertInto('view_days').values({ day: 20_000, category_id: 1, views: 3 }).execute();
    await h.db
      .insertInto('stat_cuts')
      .values({ name: 'view_days', upto: 20_001 * DAY_MS })
      .execute();
    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect(await viewDaysUpto(h.db, 0)).toBe(20_001 * DAY_MS);
    expect(await viewDaysUpto(h.db, 8 * 3_600_000)).toBeUndefined();
    // UTC days mean the same to the build before: kept
    expect((await m.migrateTo(before)).error).toBeUndefined();
    expect(await rolledUp()).toEqual([{ views: 3 }]);
    expect((await m.migrateToLatest()).error).toBeUndefined();
    // +08:00 days would be read as UTC days by it: dropped with the marker, so it rolls them up again
    await h.db
      .updateTable('stat_cuts')
      .set({ utc_offset_ms: 8 * 3_600_000 })
      .where('name', '=', 'view_days')
      .execute();
    expect((await m.migrateTo(before)).error).toBeUndefined();
    expect(await rolledUp()).toEqual([]);
    expect(
      await h.db.selectFrom('stat_cuts').select('name').where('name', '=', 'view_days').execute(),
    ).toEqual([]);
  });

  it('decisions.md §5: migrate rolls up at the offset it is given; without one, at that of the last roll-up', async () => {
    const book = await insertBook(h.db, sampleBook(), []);
    const user = await upsertUser(h.db, { openId: 'o', platform: 'wx' }, 1);
    await recordView(h.db, user.id, book.id, Date.now() - 3 * DAY_MS);
    const china = 8 * 3_600_000;
    await rollUpViewDays(h.db, Date.now(), china);
    await migrateRacingDrops(h.db, schema());
    expect(await viewDaysOffset(h.db)).toBe(china);
    await migrateRacingDrops(h.db, schema(), { reportUtcOffsetMs: 0 });
    expect(await viewDaysOffset(h.db)).toBe(0);
  });

  it('keeps every reader, keyed by user, and goes back (2026-11-24T1000-book-readers-by-user)', async () => {
    const m = testMigrator(h.db, schema());
    expect((await m.migrateTo('2026-11-23T1600-profile-version')).error).toBeUndefined();
    const books = [];
    for (let i = 0; i < 2; i++) books.push(await insertBook(h.db, sampleBook(), []));
    const users = [];
    for (const i of [1, 2, 3]) users.push(await upsertUser(h.db, { openId: `o${i}`, platform: 'wx' }));
    const [b1, b2] = books.map((b) => b.id) as [number, number];
    const [u1, u2, u3] = users.map((u) => u.id) as [number, number, number];
    const row = (book_id: number, user_id: number, last_viewed_at: number) => ({
      book_id,
      user_id,
      last_viewed_at,
    });
    await h.db
      .insertInto('book_readers')
      .values([row(b1, u1, 10), row(b2, u1, 20), row(b1, u2, 30), row(b1, u3, 5)])
      .execute();
    const readersOf = async (b: number) => (await recentReaders(h.db, b)).map((r) => r.last_viewed_at);
    const indexes = async () =>
      h.config.dialect === 'postgres'
        ? (
            await sql<{ d: string }>`select indexdef as d from pg_indexes
              where schemaname = current_schema() and tablename = 'book_readers' order by indexname`.execute(
              h.db,
            )
          ).rows.map((r) => r.d)
        : (
            await sql<{ d: string }>`select coalesce(sql, name) as d from sqlite_master
              where tbl_name = 'book_readers' order by name`.execute(h.db)
          ).rows.map((r) => r.d);

    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect(await readersOf(b1)).toEqual([30, 10, 5]);
    expect((await engagedBookIds(h.db, u1)).sort()).toEqual([b1, b2].sort());
    // a repeat view is still told from a first one by the key
    await recordView(h.db, u1, b1, 40);
    await recordView(h.db, u2, b2, 50);
    expect(await readersOf(b1)).toEqual([40, 30, 5]);
    expect(await readersOf(b2)).toEqual([50, 20]);
    // the previous build names the key (book_id, user_id): both dialects match it by its columns
    await sql`insert into book_readers (book_id, user_id, last_viewed_at) values (${b1}, ${u1}, 1)
      on conflict (book_id, user_id) do nothing`.execute(h.db);
    expect(await readersOf(b1)).toEqual([40, 30, 5]);
    const now = await indexes();
    expect(now.join('\n')).not.toMatch(/user_book_idx/);
    if (h.config.dialect === 'postgres')
      expect(now.join('\n')).toMatch(/book_readers_pk .* \(user_id, book_id\)/);
    else expect(now.join('\n')).toMatch(/primary key \(user_id, book_id\)\) without rowid/);

    expect((await m.migrateTo('2026-11-23T1600-profile-version')).error).toBeUndefined();
    expect(await readersOf(b1)).toEqual([40, 30, 5]);
    expect((await indexes()).join('\n')).toMatch(/user_book_idx/);
    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect(await readersOf(b2)).toEqual([50, 20]);
  });

  it('every migration goes down and up again', async () => {
    const m = testMigrator(h.db, schema());
    const down = await m.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect((await schemaState(h.db, schema())).state).toBe('empty');
    const up = await m.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect((await schemaState(h.db, schema())).state).toBe('current');
  });
});

// Only a missing bookkeeping table means an empty schema: a PostgreSQL that cannot be reached is an
// error with its cause (advising a migrate would not reach it either).
describe('the schema check on a database it cannot read', () => {
  const open = (url: string) => createDb({ dialect: 'postgres', url }, { connectTimeoutMs: 2000 });

  it('throws a refused connection as it is, not as an empty schema', async () => {
    const h = open(await refusingPostgresUrl());
    try {
      await expect(schemaState(h.db)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      const refused = await assertSchemaCurrent(h.db).catch((err: Error) => err);
      expect(refused).not.toBeInstanceOf(MigrationError);
      expect((refused as Error).message).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
      await expect(migrateToLatest(h.db)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await h.destroy();
    }
  });

  it.runIf(dialects.some((d) => d.name === 'postgres'))(
    'throws a database that does not exist; a missing bookkeeping table is still an empty schema',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
      const present = open(url.toString());
      url.pathname = '/fix_deploy_absent';
      const absent = open(url.toString());
      try {
        await expect(schemaState(absent.db)).rejects.toThrow('database "fix_deploy_absent" does not exist');
        // a schema nothing was ever migrated into
        expect((await schemaState(present.db, 'fix_deploy_never_migrated')).state).toBe('empty');
      } finally {
        await Promise.all([present.destroy(), absent.destroy()]);
      }
    },
  );

  it('a SQLite database never migrated is empty', async () => {
    const h = createDb({ dialect: 'sqlite', file: ':memory:' });
    try {
      expect((await schemaState(h.db)).state).toBe('empty');
    } finally {
      await h.destroy();
    }
  });
});
