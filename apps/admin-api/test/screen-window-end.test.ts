import { DAY_MS, insertBook, recordView } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, insertUser } from './helpers.js';

const dialects = await testDialects();
const NOW = Date.UTC(2026, 2, 10, 15, 0, 0);

// decisions.md §5: every figure covers the `days` window, which ends with today. Rows dated after it (a
// replica or an import with its clock ahead) are left out of every figure alike: `today`, the trends,
// categories, top books, top searches, word cloud and maps.
describe.each(dialects)('decisions.md §5: the window ends with today on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
    t.clock.now = NOW;
    const db = t.h.db;
    const book = await insertBook(db, sampleBook({ title: 'Read today', category_id: 1 }), []);
    const later = await insertBook(db, sampleBook({ title: 'Read later', category_id: 1 }), []);
    const users = [
      { id: await insertUser(db, 'now', NOW - 3_600_000, '广东', '广州'), when: NOW - 3_600_000 },
      { id: await insertUser(db, 'ahead', NOW + 2 * DAY_MS, '四川', '成都'), when: NOW + 2 * DAY_MS },
    ];
    await recordView(db, users[0]!.id, book.id, users[0]!.when);
    await recordView(db, users[1]!.id, later.id, users[1]!.when);
    for (const [keyword, when] of [
      ['today', NOW - 60_000],
      ['later', NOW + 2 * DAY_MS],
    ] as const) {
      await db.insertInto('search_log').values({ keyword, open_id: null, created_at: when }).execute();
    }
  });
  afterEach(async () => t.close());

  const screen = async (path: string) =>
    (await t.app.inject({ method: 'GET', url: path, headers: t.auth })).json().data;

  it('rows dated after today are in no figure of the window', async () => {
    const d = await screen('/screen/data?days=1');
    expect(d.today).toMatchObject({ user: 1, view: 1, search: 1 });
    expect(d.category.find((c: { category: number }) => c.category === 1)).toMatchObject({ views: 1 });
    expect(d.topBooks.map((b: { title: string }) => b.title)).toEqual(['Read today']);
    expect(d.topSearches.map((k: { keyword: string }) => k.keyword)).toEqual(['today']);
    expect(await screen('/screen/wordcloud?days=1')).toEqual([{ word: 'today', count: 1, user: 0 }]);
    expect(await screen('/screen/map?days=1')).toEqual([{ name: '广东', value: 1 }]);
    expect((await screen('/screen/map/scatter?days=1')).data).toEqual([{ name: '广州', value: 1 }]);
  });
});
