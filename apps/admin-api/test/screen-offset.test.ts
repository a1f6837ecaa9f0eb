import { growthRatio } from '@readlib/catalog';
import { testConfig } from '@readlib/config';
import { type Database, insertBook, recordView } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import type { App } from '@readlib/http';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index.js';
import { type Harness, harness, insertUser, JWT_SECRET } from './helpers.js';

const dialects = await testDialects();

// 09:00 on 2026-11-23 in China (+08:00), 01:00 in UTC, 20:00 on 2026-11-22 at -05:00
const NOW = Date.UTC(2026, 10, 23, 1);

/** Each user registers, and views a book, at this instant; the province names the user. */
const EVENTS: Array<[province: string, at: string]> = [
  ['A', '2026-11-22T17:00:00Z'],
  ['B', '2026-11-22T15:00:00Z'],
  ['C', '2026-11-23T00:30:00Z'],
  ['D', '2026-11-22T04:00:00Z'],
  ['E', '2026-11-20T20:00:00Z'],
];

/** A user named after their province. */
const user = (db: Kysely<Database>, province: string, created: number) =>
  insertUser(db, `u-${province}`, created, province);

/*
 * What each offset makes of EVENTS, worked out by hand from the local times:
 * +08:00 (now 11-23 09:00): A 11-23 01:00, B 11-22 23:00, C 11-23 08:30, D 11-22 12:00, E 11-21 04:00
 * +00:00 (now 11-23 01:00): A 11-22, B 11-22, C 11-23, D 11-22, E 11-20
 * -05:00 (now 11-22 20:00): A 11-22 12:00, B 11-22 10:00, C 11-22 19:30, D 11-21 23:00, E 11-20 15:00
 */
const CHINA = {
  today: 2,
  lastDay: 2,
  axis: ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'],
  values: [0, 1, 2, 2],
  todayProvinces: ['A', 'C'],
};
const EXPECTED: Array<[offset: string, ms: number, expected: typeof CHINA]> = [
  ['+08:00', 8 * 3_600_000, CHINA],
  [
    '+00:00',
    0,
    {
      today: 1,
      lastDay: 3,
      axis: ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'],
      values: [1, 0, 3, 1],
      todayProvinces: ['C'],
    },
  ],
  [
    '-05:00',
    -5 * 3_600_000,
    {
      today: 3,
      lastDay: 1,
      axis: ['2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'],
      values: [0, 1, 1, 3],
      todayProvinces: ['A', 'B', 'C'],
    },
  ],
  // back to +08:00 on the same database: the rows rolled up at -05:00 are made again, not added to
  ['+08:00', 8 * 3_600_000, CHINA],
];

describe.each(dialects)('decisions.md §5 report days follow REPORT_UTC_OFFSET on $name', (dialect) => {
  let t: Harness;
  const apps = new Map<string, App>();
  beforeAll(async () => {
    t = await harness(dialect, { REPORT_UTC_OFFSET: '+08:00' });
    t.clock.now = NOW;
    apps.set('+08:00', t.app);
    // the other offsets: services configured otherwise, one after the other on the same database
    for (const offset of ['+00:00', '-05:00']) {
      const config = testConfig({ STORAGE_DIR: t.root, JWT_SECRET, REPORT_UTC_OFFSET: offset });
      apps.set(offset, await buildApp(config, { db: t.h.db, store: t.store, logger: false, now: () => NOW }));
    }
    const book = await insertBook(t.h.db, sampleBook({ category_id: 1 }), []);
    for (const [province, at] of EVENTS) {
      const id = await user(t.h.db, province, Date.parse(at));
      await recordView(t.h.db, id, book.id, Date.parse(at));
    }
  });
  afterAll(async () => {
    for (const [offset, app] of apps) if (offset !== '+08:00') await app.close();
    await t.close();
  });

  const screen = async (offset: string, path: string) => {
    const res = await apps.get(offset)!.inject({ method: 'GET', url: path, headers: t.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it.each(EXPECTED)(
    'at %s: today, lastDay, growth, trend days and labels, the days window',
    async (offset, ms, e) => {
      const d = await screen(offset, '/screen/data?days=4');
      expect([d.today.user, d.lastDay.user]).toEqual([e.today, e.lastDay]);
      expect([d.today.view, d.lastDay.view]).toEqual([e.today, e.lastDay]);
      expect(d.growth.userLastDay).toBe(growthRatio(e.today, e.lastDay));
      // at +08:00, A (2026-11-22T17:00Z) is today, under the label 2026-11-23
      expect(d.userTrend).toEqual({ axis: e.axis, values: e.values });
      // the past days of which come from view_days, rolled up at this offset
      expect(d.viewTrend).toEqual({ axis: e.axis, values: e.values });
      const marker = await t.h.db
        .selectFrom('stat_cuts')
        .select('utc_offset_ms')
        .where('name', '=', 'view_days')
        .executeTakeFirstOrThrow();
      expect(Number(marker.utc_offset_ms)).toBe(ms);
      expect(d.category).toEqual([
        { category: 1, categoryText: 'ComputerScience', num: 1, views: e.values.reduce((a, b) => a + b) },
      ]);
      const today = await screen(offset, '/screen/map?days=1');
      expect(today.map((p: { name: string }) => p.name).sort()).toEqual(e.todayProvinces);
    },
  );
});
