import { recordView, saveRating, updateBook, upsertUser } from '@readlib/data';
import { afterEach, describe, expect, it } from 'vitest';
import { dialects, get, type Harness, harness, register, seedBooks } from './helpers.js';

// Issue: performance — a book's serialised detail is kept per process and shared by every caller
// (spec §4.7, decisions.md §3 "Book detail"): each change a detail shows, made by any process (here
// straight through the data layer, as another replica or the admin API would), is in the next answer.
describe.each(dialects)('kept book details on $name', (dialect) => {
  let t: Harness;
  afterEach(async () => t.close());

  const detail = async (fileName: string, openId?: string) => {
    const res = await get(t, '/book/detail', { fileName, openId });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const userId = async (openId: string) =>
    (await t.h.db.selectFrom('users').select('id').where('open_id', '=', openId).executeTakeFirstOrThrow())
      .id;

  it('views, ratings, renamed readers and book edits made elsewhere are in the next detail', async () => {
    t = await harness(dialect);
    const [book] = await seedBooks(t, 1);
    const fileName = book!.file_name;
    await register(t, 'alice', { nickName: 'Alice' });
    await register(t, 'bob', { nickName: 'Bob' });
    await detail(fileName, 'alice');
    expect(await detail(fileName)).toMatchObject({ readerNum: 1, rankNum: 0, rankAvg: '0' });

    await recordView(t.h.db, await userId('bob'), book!.id, t.clock.now + 1);
    let d = await detail(fileName);
    expect(d.readerNum).toBe(2);
    expect(d.readers.map((r: { nickName: string }) => r.nickName)).toEqual(['Bob', 'Alice']);

    // a repeat view reorders the readers without adding one
    await recordView(t.h.db, await userId('alice'), book!.id, t.clock.now + 2);
    d = await detail(fileName);
    expect(d.readers.map((r: { nickName: string }) => r.nickName)).toEqual(['Alice', 'Bob']);

    await saveRating(t.h.db, await userId('bob'), book!.id, 3, t.clock.now);
    expect(await detail(fileName)).toMatchObject({ rankNum: 1, rankAvg: '3', rank: 0 });

    await upsertUser(t.h.db, { openId: 'bob', nickName: 'Robert' });
    d = await detail(fileName);
    expect(d.readers.map((r: { nickName: string }) => r.nickName)).toEqual(['Alice', 'Robert']);

    await updateBook(t.h.db, fileName, { title: 'Edited elsewhere' });
    expect((await detail(fileName)).title).toBe('Edited elsewhere');
  });

  it('one kept answer serves every caller with their own rank; HEAD sends its headers', async () => {
    t = await harness(dialect);
    const [book] = await seedBooks(t, 1);
    const fileName = book!.file_name;
    for (const u of ['rater', 'other']) await register(t, u, { nickName: u });
    await get(t, '/book/rank/save', { fileName, openId: 'rater', rank: 5 });
    await detail(fileName, 'other');
    // the rater's view moves the counts: their answer is serialised anew, then kept as it stands
    const mine = await detail(fileName, 'rater');
    const anon = await detail(fileName);
    expect(mine.rank).toBe(5);
    expect(anon.rank).toBe(0);
    expect({ ...mine, rank: 0 }).toEqual(anon);
    expect(anon).toMatchObject({ readerNum: 2, rankNum: 1, rankAvg: '5' });
    expect((await detail(fileName, 'other')).rank).toBe(0);
    expect((await detail(fileName, 'unregistered')).rank).toBe(0);
    // an openId that has not registered records no view (docs/decisions/views-of-registered-readers.md)
    expect((await detail(fileName)).readerNum).toBe(2);

    const head = await t.app.inject({
      method: 'HEAD',
      url: `/book/detail?fileName=${fileName}&openId=other`,
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.body).toBe('');
    expect((await detail(fileName)).readers).toHaveLength(2);
  });

  it('a kept answer with CJK text around the rank is spliced by bytes, its length sent right', async () => {
    t = await harness(dialect);
    const [book] = await seedBooks(t, 1);
    const fileName = book!.file_name;
    await updateBook(t.h.db, fileName, { title: '红楼梦 — 第一卷', author: '曹雪芹' });
    for (const u of ['读者甲', '读者乙']) await register(t, u, { nickName: `昵称${u}` });
    await get(t, '/book/rank/save', { fileName, openId: '读者甲', rank: 4 });
    await detail(fileName, '读者乙');
    await detail(fileName, '读者甲');
    for (const [openId, rank] of [
      ['读者甲', 4],
      ['读者乙', 0],
      [undefined, 0],
    ] as const) {
      const res = await t.app.inject({
        url: `/book/detail?fileName=${fileName}${openId ? `&openId=${encodeURIComponent(openId)}` : ''}`,
      });
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      const d = JSON.parse(res.rawPayload.toString('utf8')).data;
      expect(d).toMatchObject({ title: '红楼梦 — 第一卷', author: '曹雪芹', rank, readerNum: 2 });
      expect(d.readers.map((r: { nickName: string }) => r.nickName).sort()).toEqual(
        ['昵称读者乙', '昵称读者甲'].sort(),
      );
    }
  });

  it('the answer is kept: a change that moves no count or version is not seen', async () => {
    t = await harness(dialect);
    const [book] = await seedBooks(t, 1);
    await register(t, 'carol', { nickName: 'Carol' });
    await detail(book!.file_name, 'carol');
    // behind every cache's back: written without the registration's profile version
    await t.h.db.updateTable('users').set({ nick_name: 'Sneaky' }).where('open_id', '=', 'carol').execute();
    expect((await detail(book!.file_name)).readers[0].nickName).toBe('Carol');
    // the same change as a registration makes it: the version moves, the next detail is fresh
    await register(t, 'carol', { nickName: 'Caroline' });
    expect((await detail(book!.file_name)).readers[0].nickName).toBe('Caroline');
  });

  it("readers' nicknames and avatars are kept across books until a registration moves their version", async () => {
    t = await harness(dialect);
    const [one, two] = await seedBooks(t, 2);
    await register(t, 'dora', { nickName: 'Dora', avatarUrl: 'https://img.example/dora.png' });
    await register(t, 'eve', { nickName: 'Eve' });
    await detail(one!.file_name, 'dora');
    await detail(two!.file_name, 'dora');
    // behind every cache's back, then a view that makes the second book's readers be read again
    await t.h.db.updateTable('users').set({ nick_name: 'Sneaky' }).where('open_id', '=', 'dora').execute();
    const d = await detail(two!.file_name, 'eve');
    expect(d.readers.map((r: { nickName: string }) => r.nickName)).toEqual(['Eve', 'Dora']);
    expect(d.readers[1].avatarUrl).toBe('https://img.example/dora.png');
    await register(t, 'dora', { nickName: 'Dorothy' });
    expect((await detail(one!.file_name)).readers[0].nickName).toBe('Dorothy');
    expect(
      (await detail(two!.file_name, 'eve')).readers.map((r: { nickName: string }) => r.nickName),
    ).toEqual(['Eve', 'Dorothy']);
  });

  it('an unknown book is still a 404 in the envelope', async () => {
    t = await harness(dialect);
    const res = await get(t, '/book/detail', { fileName: 'no-such-book' });
    expect(res.status).toBe(404);
    expect(res.body.error_code).not.toBe(0);
  });
});
