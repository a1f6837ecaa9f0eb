import { createDb, type DbConfig, saveShelf, updateBook } from '@readlib/data';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dialects, get, type Harness, harness, register, seedBooks, shelfArg, view } from './helpers.js';

// Issue: performance — reads reused while nothing at all is committed (SQLite's data_version, any
// connection of any process). Spec §4.4 detail, §4.8 shelf, §4.1 home: every answer still shows every
// committed change, here made through another handle on the same file, as another process would.
describe.each(dialects)('reads kept until the next commit on $name', (dialect) => {
  let t: Harness;
  afterEach(async () => t.close());

  /** statements the app's Kysely instance runs while `fn` runs */
  async function statementsDuring(fn: () => Promise<unknown>): Promise<string[]> {
    const executor = t.h.db.getExecutor();
    const spy = vi.spyOn(executor, 'executeQuery');
    try {
      await fn();
      return spy.mock.calls.map(([q]) => q.sql);
    } finally {
      spy.mockRestore();
    }
  }

  it('asked again with nothing committed, shelf/get and an anonymous detail read nothing, home/v2 only its random draws (SQLite)', async () => {
    t = await harness(dialect);
    const [a, b] = await seedBooks(t, 2);
    await register(t, 'u1');
    await get(t, '/book/shelf/save', { shelf: shelfArg('u1', a!.file_name) });
    await view(t, b!.file_name, 'u1');
    const ask = () =>
      Promise.all([
        get(t, '/book/shelf/get', { openId: 'u1' }),
        get(t, '/book/detail', { fileName: a!.file_name }),
        get(t, '/book/home/v2', { openId: 'u1' }),
      ]);
    const first = await ask();
    let again: Awaited<ReturnType<typeof ask>> = first;
    const sqls = await statementsDuring(async () => {
      again = await ask();
    });
    expect(again.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(again[0].body).toEqual(first[0].body);
    expect(again[1].body).toEqual(first[1].body);
    expect(again[2].body.data.shelf).toEqual(first[2].body.data.shelf);
    if (dialect.name === 'sqlite') {
      // home/v2 still draws its random books from a catalogue this small: only those reads are left
      expect(sqls.filter((q) => !/"pos" = \?|"views_total" > \?/.test(q))).toEqual([]);
    } else {
      // PostgreSQL tells nothing of commits: the catalogue version and the shelf are read every time
      expect(sqls.some((q) => q.includes('"shelf_entries"'))).toBe(true);
    }
  });

  it('a commit by another process is in the next shelf, detail and home', async () => {
    t = await harness(dialect);
    const [a, b] = await seedBooks(t, 2);
    await register(t, 'u1');
    await get(t, '/book/shelf/save', { shelf: shelfArg('u1', a!.file_name) });
    await get(t, '/book/shelf/get', { openId: 'u1' });
    await get(t, '/book/detail', { fileName: a!.file_name });
    await get(t, '/book/home/v2', { openId: 'u1' });
    const user = await t.h.db
      .selectFrom('users')
      .select('id')
      .where('open_id', '=', 'u1')
      .executeTakeFirstOrThrow();

    const other = createDb((t.h as typeof t.h & { config: DbConfig }).config);
    try {
      await saveShelf(other.db, user.id, b!.id, t.clock.now + 5);
      await updateBook(other.db, a!.file_name, { title: 'Renamed by the admin' });
    } finally {
      await other.destroy();
    }
    const shelf = await get(t, '/book/shelf/get', { openId: 'u1' });
    expect(shelf.body.data.map((e: { fileName: string }) => e.fileName)).toEqual([
      b!.file_name,
      a!.file_name,
    ]);
    expect(shelf.body.data[1].title).toBe('Renamed by the admin');
    expect((await get(t, '/book/detail', { fileName: a!.file_name })).body.data.title).toBe(
      'Renamed by the admin',
    );
    const home = await get(t, '/book/home/v2', { openId: 'u1' });
    expect(home.body.data.shelfCount).toBe(2);
  });

  it("a registered caller's view is in their own detail, kept counts or not", async () => {
    t = await harness(dialect);
    const [a] = await seedBooks(t, 1);
    for (const u of ['u1', 'u2']) await register(t, u);
    const anon = await get(t, '/book/detail', { fileName: a!.file_name });
    expect(anon.body.data.readerNum).toBe(0);
    expect((await view(t, a!.file_name, 'u1')).readerNum).toBe(1);
    const second = await view(t, a!.file_name, 'u2');
    expect(second.readerNum).toBe(2);
    expect(second.readers).toHaveLength(2);
    expect((await get(t, '/book/detail', { fileName: a!.file_name })).body.data.readerNum).toBe(2);
  });
});
