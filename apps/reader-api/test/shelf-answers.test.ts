import { ReaderKeeps, type ShelfPlan } from '@readlib/catalog';
import type { ShelfEntry } from '@readlib/contracts';
import { deleteBook, removeShelf, saveShelf, updateBook } from '@readlib/data';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ShelfAnswers } from '../src/routes/shelf/shelf-answers.js';
import { dialects, get, type Harness, harness, register, seedBooks, shelfArg } from './helpers.js';

// Issue: performance — a user's serialised shelf is kept per process (spec §4.8, decisions.md §3
// "Shelf"): every change a shelf shows, made by any process (here straight through the data layer, as
// another replica or the admin API would), is in the next answer.
describe.each(dialects)('kept shelves on $name', (dialect) => {
  let t: Harness;
  afterEach(async () => t.close());

  const shelf = async (openId: string, fileName?: string) => {
    const res = await get(t, '/book/shelf/get', { openId, fileName });
    expect(res.status).toBe(200);
    return res.body.data as ShelfEntry[];
  };
  const names = async (openId: string) => (await shelf(openId)).map((e) => e.fileName);
  const userId = async (openId: string) =>
    (await t.h.db.selectFrom('users').select('id').where('open_id', '=', openId).executeTakeFirstOrThrow())
      .id;

  it('saves, removes, book edits and deletions made elsewhere are in the next shelf', async () => {
    t = await harness(dialect);
    const [a, b, c] = await seedBooks(t, 3);
    await register(t, 'u1');
    const id = await userId('u1');
    await get(t, '/book/shelf/save', { shelf: shelfArg('u1', a!.file_name) });
    expect(await names('u1')).toEqual([a!.file_name]);

    await saveShelf(t.h.db, id, b!.id, t.clock.now + 10);
    expect(await names('u1')).toEqual([b!.file_name, a!.file_name]);
    await removeShelf(t.h.db, id, a!.id);
    expect(await names('u1')).toEqual([b!.file_name]);
    // removed and saved again: the same book at a later time
    await removeShelf(t.h.db, id, b!.id);
    await saveShelf(t.h.db, id, b!.id, t.clock.now + 20);
    expect((await shelf('u1'))[0]!.date).toBe(t.clock.now + 20);

    await updateBook(t.h.db, b!.file_name, { title: 'Edited elsewhere' });
    expect((await shelf('u1'))[0]!.title).toBe('Edited elsewhere');

    await saveShelf(t.h.db, id, c!.id, t.clock.now + 30);
    await shelf('u1');
    await deleteBook(t.h.db, c!.file_name);
    expect(await names('u1')).toEqual([b!.file_name]);
  });

  it('each user gets their own shelf; one book and unregistered callers are answered as before', async () => {
    t = await harness(dialect);
    const [a, b] = await seedBooks(t, 2);
    for (const u of ['u1', 'u2']) await register(t, u);
    await get(t, '/book/shelf/save', { shelf: shelfArg('u1', a!.file_name) });
    await get(t, '/book/shelf/save', { shelf: shelfArg('u2', b!.file_name) });
    for (let i = 0; i < 2; i++) {
      expect(await shelf('u1')).toMatchObject([{ fileName: a!.file_name, openId: 'u1' }]);
      expect(await shelf('u2')).toMatchObject([{ fileName: b!.file_name, openId: 'u2' }]);
    }
    expect(await shelf('u1', a!.file_name)).toHaveLength(1);
    expect(await shelf('u1', b!.file_name)).toEqual([]);
    expect(await shelf('nobody')).toEqual([]);
    const head = await t.app.inject({ method: 'HEAD', url: '/book/shelf/get?openId=u1' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('ShelfAnswers', () => {
  /** A route sending through ShelfAnswers the plan a test hands it, counting how often it is built. */
  async function stand(maxBytes?: number) {
    const versions = new ReaderKeeps().versions;
    versions.observe('catalog', 1);
    const answers = new ShelfAnswers(versions, maxBytes);
    const calls = { entries: 0 };
    let plan: ShelfPlan = { seen: versions.seen, entries: async () => [] };
    const app = Fastify();
    app.get('/s', async (_req, reply) => answers.send(reply, plan));
    const send = async (p: Omit<ShelfPlan, 'entries' | 'seen'>, rows: number, pad = 'x') => {
      plan = {
        ...p,
        seen: versions.seen,
        entries: async () => {
          calls.entries++;
          return Array.from({ length: rows }, (_, i) => ({ n: i, pad: pad.repeat(100) }) as never);
        },
      };
      return JSON.parse((await app.inject('/s')).body).data as unknown[];
    };
    return { app, calls, send, versions };
  }

  it("reuses an answer while its tag (the user's entries) holds and builds it anew when it changes", async () => {
    const { app, calls, send } = await stand();
    expect(await send({ userId: 1, tag: 'v1' }, 2)).toHaveLength(2);
    // the same tag: the kept answer, even though the plan would now build three entries
    expect(await send({ userId: 1, tag: 'v1' }, 3)).toHaveLength(2);
    expect(calls.entries).toBe(1);
    expect(await send({ userId: 1, tag: 'v2' }, 3)).toHaveLength(3);
    expect(await send({ userId: 2, tag: 'v2' }, 1)).toHaveLength(1);
    expect(calls.entries).toBe(3);
    await app.close();
  });

  it('a move of the catalogue version makes every kept shelf stale (the books may have changed)', async () => {
    const { app, calls, send, versions } = await stand();
    await send({ userId: 1, tag: 't' }, 2);
    await send({ userId: 1, tag: 't' }, 2);
    expect(calls.entries).toBe(1);
    versions.observe('catalog', 2);
    await send({ userId: 1, tag: 't' }, 2);
    expect(calls.entries).toBe(2);
    await app.close();
  });

  it('keeps nothing without a tag or a user; within its byte budget only, counted in UTF-8', async () => {
    const budget = 64 * 1024;
    const { app, calls, send } = await stand(budget);
    await send({ userId: 1 }, 1);
    await send({ userId: 1 }, 1);
    expect(calls.entries).toBe(2);
    // an answer heavier than the whole budget is sent, not kept
    const big = Math.ceil(budget / 100);
    expect(await send({ userId: 3, tag: 's' }, big)).toHaveLength(big);
    expect(await send({ userId: 3, tag: 's' }, 1)).toHaveLength(1);
    expect(calls.entries).toBe(4);
    // CJK text within the budget in characters but past it in UTF-8 is not kept either
    const cjk = Math.ceil(budget / 300);
    expect(await send({ userId: 4, tag: 's' }, cjk, '字')).toHaveLength(cjk);
    expect(await send({ userId: 4, tag: 's' }, 1, '字')).toHaveLength(1);
    expect(calls.entries).toBe(6);
    // answers that fit are kept, the oldest making room for newer ones
    for (const user of [10, 11, 12]) await send({ userId: user, tag: 's' }, Math.floor(budget / 400));
    await send({ userId: 12, tag: 's' }, 1);
    expect(calls.entries).toBe(9);
    await app.close();
  });
});
