import { GAZETTEER_SIZE, growthRatio, lookupCity } from '@readlib/catalog';
import { DAY_MS, insertBook, recordView } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, insertUser } from './helpers.js';

const dialects = await testDialects();

// a fixed "now": 2026-03-10 15:00 UTC
const NOW = Date.UTC(2026, 2, 10, 15, 0, 0);
const TODAY = Date.UTC(2026, 2, 10);
const at = (daysAgo: number, hour = 12) => TODAY - daysAgo * DAY_MS + hour * 3_600_000;

const user = insertUser;

describe.each(dialects)('decisions.md §5 report screens on $name', (dialect) => {
  let t: Harness;
  beforeAll(async () => {
    t = await harness(dialect);
    t.clock.now = NOW;
    const db = t.h.db;
    const b1 = await insertBook(db, sampleBook({ title: 'Popular', category_id: 1 }), []);
    const b2 = await insertBook(db, sampleBook({ title: 'Second', category_id: 1 }), []);
    const b3 = await insertBook(db, sampleBook({ title: 'History book', category_id: 8 }), []);
    // users: 3 today, 1 yesterday, 2 five days ago, 1 forty days ago (outside the 30-day window)
    const u = [
      await user(db, 'u1', at(0, 1), '广东', '广州'),
      await user(db, 'u2', at(0, 2), '广东', '深圳'),
      await user(db, 'u3', at(0, 3), 'Zhejiang', 'Hangzhou'),
      await user(db, 'u4', at(1), '广东', '广州'),
      await user(db, 'u5', at(5), '北京', '北京市'),
      await user(db, 'u6', at(5), '', 'Atlantis'),
      await user(db, 'u7', at(40), '四川', '成都'),
    ];
    // as the reader API records them: the view, the reader's latest view of the book, the book's counts
    const view = (uid: number, bid: number, when: number) => recordView(db, uid, bid, when);
    // b1: 3 distinct readers (4 views), b2: 1 reader, b3: 2 readers (one of them 40 days ago: outside)
    await view(u[0]!, b1.id, at(0));
    await view(u[0]!, b1.id, at(0, 13));
    await view(u[1]!, b1.id, at(1));
    await view(u[2]!, b1.id, at(2));
    await view(u[3]!, b2.id, at(1));
    await view(u[4]!, b3.id, at(3));
    await view(u[5]!, b3.id, at(40));
    await db
      .insertInto('shelf_entries')
      .values([
        { user_id: u[0]!, book_id: b1.id, created_at: at(0) },
        { user_id: u[1]!, book_id: b1.id, created_at: at(1) },
      ])
      .execute();
    await db
      .insertInto('ratings')
      .values({ user_id: u[0]!, book_id: b1.id, rank: 5, created_at: at(0), updated_at: at(0) })
      .execute();
    const search = (keyword: string, openId: string | null, when: number) =>
      db.insertInto('search_log').values({ keyword, open_id: openId, created_at: when }).execute();
    await search('三体', 'u1', at(0));
    await search('三体', 'u1', at(0, 14));
    await search('三体', 'u2', at(1));
    await search('python', 'u3', at(2));
    await search('python', null, at(2));
    await search('old', 'u1', at(45));
  });
  afterAll(async () => t.close());

  const screen = async (path: string) => {
    const res = await t.app.inject({ method: 'GET', url: path, headers: t.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().code).toBe(0);
    return res.json().data;
  };

  it('GET /screen/data: totals, today, lastDay and growth from the inserted data', async () => {
    const d = await screen('/screen/data');
    expect(d.totals).toEqual({ book: 3, user: 7, shelf: 2, rank: 1, view: 7, search: 6 });
    expect(d.today).toEqual({ user: 3, shelf: 1, rank: 1, view: 2, search: 2 });
    expect(d.lastDay).toEqual({ user: 1, shelf: 1, rank: 0, view: 2, search: 1 });
    expect(d.growth.userLastDay).toBe(growthRatio(3, 1));
    expect(d.growth.userLastDay).toBe(2);
    // 6 users in the 30-day window, 1 in the 30 days before it
    expect(d.growth.userLastMonth).toBe(5);
  });

  it('GET /screen/data: per-day trends over the window with YYYY-MM-DD labels (UTC)', async () => {
    const d = await screen('/screen/data?days=7');
    expect(d.userTrend.axis).toEqual([
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
    expect(d.userTrend.values).toEqual([0, 2, 0, 0, 0, 1, 3]);
    expect(d.viewTrend.values).toEqual([0, 0, 0, 1, 1, 2, 2]);
    const month = await screen('/screen/data');
    expect(month.userTrend.axis).toHaveLength(30);
    expect(month.userTrend.values.reduce((a: number, b: number) => a + b, 0)).toBe(6);
  });

  it('GET /screen/data: categories, top books by distinct readers, top searches', async () => {
    const d = await screen('/screen/data');
    expect(d.category).toEqual([
      { category: 1, categoryText: 'ComputerScience', num: 2, views: 5 },
      { category: 8, categoryText: 'History', num: 1, views: 1 },
    ]);
    // the days before today were read from their roll-up (view_days), today from the views
    const rolled = await t.h.db
      .selectFrom('view_days')
      .select((eb) => eb.fn.sum<number>('views').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rolled.n)).toBe(5);
    expect(
      d.topBooks.map((b: { no: number; title: string; readers: number }) => [b.no, b.title, b.readers]),
    ).toEqual([
      [1, 'Popular', 3],
      [2, 'Second', 1],
      [3, 'History book', 1],
    ]);
    expect(d.topSearches).toEqual([
      { no: 1, keyword: '三体', count: 3 },
      { no: 2, keyword: 'python', count: 2 },
    ]);
  });

  it('GET /screen/wordcloud: searches and distinct searchers of the window', async () => {
    expect(await screen('/screen/wordcloud')).toEqual([
      { word: '三体', count: 3, user: 2 },
      { word: 'python', count: 2, user: 1 },
    ]);
    expect(await screen('/screen/wordcloud?days=366')).toContainEqual({ word: 'old', count: 1, user: 1 });
  });

  it('GET /screen/map: users per province of the window, empty provinces left out', async () => {
    expect(await screen('/screen/map')).toEqual([
      { name: '广东', value: 3 },
      { name: 'Zhejiang', value: 1 },
      { name: '北京', value: 1 },
    ]);
    expect(await screen('/screen/map?days=366')).toContainEqual({ name: '四川', value: 1 });
  });

  it('GET /screen/map/scatter: users per city; coordinates only for known cities', async () => {
    const d = await screen('/screen/map/scatter');
    expect(d.data).toEqual([
      { name: '广州', value: 2 },
      { name: 'Atlantis', value: 1 },
      { name: 'Hangzhou', value: 1 },
      { name: '北京市', value: 1 },
      { name: '深圳', value: 1 },
    ]);
    expect(Object.keys(d.geo).sort()).toEqual(['Hangzhou', '北京市', '广州', '深圳'].sort());
    expect(d.geo.广州).toEqual(lookupCity('Guangzhou'));
  });

  it('days outside 1..366 is 400 code -1', async () => {
    for (const q of ['days=0', 'days=367', 'days=x']) {
      const res = await t.app.inject({ method: 'GET', url: `/screen/data?${q}`, headers: t.auth });
      expect([res.statusCode, res.json().code], q).toEqual([400, -1]);
    }
  });
});

describe('decisions.md §5 gazetteer', () => {
  it('knows the large Chinese and world cities, in Chinese and pinyin/English, with real coordinates', () => {
    expect(GAZETTEER_SIZE).toBeGreaterThanOrEqual(100);
    const near = (name: string, lng: number, lat: number) => {
      const at = lookupCity(name);
      expect(at, name).toBeDefined();
      expect(Math.abs(at![0] - lng), name).toBeLessThan(0.3);
      expect(Math.abs(at![1] - lat), name).toBeLessThan(0.3);
    };
    near('广州', 113.26, 23.13);
    near('guangzhou', 113.26, 23.13);
    near('北京市', 116.4, 39.9);
    near("Xi'an", 108.94, 34.34);
    near('乌鲁木齐', 87.62, 43.83);
    near('London', -0.13, 51.51);
    near('New York', -74.0, 40.71);
    near('Sydney', 151.21, -33.87);
    expect(lookupCity('Atlantis')).toBeUndefined();
    expect(lookupCity('Taizhou')).toBeUndefined();
  });
});
