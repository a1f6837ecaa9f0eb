import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BookRow,
  categoryActivity,
  DAY_MS,
  type DbHandle,
  dailyCounts,
  deleteBook,
  insertBook,
  ROLL_UP_GRACE_MS,
  rebuildActivityStats,
  rebuildViewDays,
  recordView,
  rollUpViewDays,
  updateBook,
  upsertUser,
  viewDaysUpto,
  viewsPerDay,
} from '../src/index.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

// 2026-03-10 15:00 UTC; day numbers count UTC days since the epoch
const NOW = Date.UTC(2026, 2, 10, 15);
const TODAY = Math.floor(NOW / DAY_MS);
const at = (daysAgo: number, hour = 12) => (TODAY - daysAgo) * DAY_MS + hour * 3_600_000;
const WINDOW = { since: (TODAY - 29) * DAY_MS, until: (TODAY + 1) * DAY_MS };

describe.each(dialects)(
  'decisions.md §5 screens: views rolled up per day and category on $name',
  (dialect) => {
    let h: DbHandle;
    let books: BookRow[];
    beforeEach(async () => {
      h = await dialect.create();
      books = [];
      for (const category_id of [1, 1, 2])
        books.push(await insertBook(h.db, sampleBook({ category_id }), []));
      const users = [];
      for (const openId of ['a', 'b', 'c']) users.push(await upsertUser(h.db, { openId, platform: 'wx' }, 1));
      // 40 days ago (outside the window), 20 and 3 days ago, yesterday, today
      const views: Array<[number, number, number]> = [
        [0, 0, at(40)],
        [0, 0, at(20)],
        [1, 0, at(20, 13)],
        [2, 1, at(3)],
        [0, 2, at(3, 1)],
        [1, 1, at(1, 23)],
        [2, 2, at(0, 1)],
        [0, 1, at(0, 14)],
      ];
      for (const [u, b, when] of views) await recordView(h.db, users[u]!.id, books[b]!.id, when);
    });
    afterEach(async () => h.destroy());

    // the same figures grouped from the views themselves: what the roll-up must always agree with
    const fromViews = async () => {
      const perCategory = await h.db
        .selectFrom('views')
        .innerJoin('books', 'books.id', 'views.book_id')
        .select(['books.category_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('views.created_at', '>=', WINDOW.since)
        .groupBy('books.category_id')
        .execute();
      return {
        days: Object.fromEntries(await dailyCounts(h.db, 'views', WINDOW.since, WINDOW.until)),
        categories: Object.fromEntries(perCategory.map((r) => [r.category_id, Number(r.n)])),
      };
    };
    const fromRollUp = async () => ({
      days: Object.fromEntries(await viewsPerDay(h.db, WINDOW.since, WINDOW.until)),
      categories: Object.fromEntries(
        (await categoryActivity(h.db, WINDOW.since, WINDOW.until))
          .filter((c) => c.views > 0)
          .map((c) => [c.id, c.views]),
      ),
    });

    /** The rolled-up rows, by day then category. */
    const viewDayRows = () =>
      h.db.selectFrom('view_days').selectAll().orderBy('day').orderBy('category_id').execute();

    it('rolls up the days that are over, from the oldest view on; today is counted live', async () => {
      const live = await fromViews();
      expect(live.days).toEqual({ [TODAY - 20]: 2, [TODAY - 3]: 2, [TODAY - 1]: 1, [TODAY]: 2 });
      await rollUpViewDays(h.db, NOW);
      expect(await viewDaysUpto(h.db)).toBe(TODAY * DAY_MS);
      const rows = await viewDayRows();
      expect(rows.map((r) => [Number(r.day), Number(r.category_id), Number(r.views)])).toEqual([
        [TODAY - 40, 1, 1],
        [TODAY - 20, 1, 2],
        [TODAY - 3, 1, 1],
        [TODAY - 3, 2, 1],
        [TODAY - 1, 1, 1],
      ]);
      expect(await fromRollUp()).toEqual(live);
      expect(live.categories).toEqual({ 1: 5, 2: 2 });
      // a view of today, after the roll-up, is counted
      await recordView(
        h.db,
        (await upsertUser(h.db, { openId: 'a', platform: 'wx' }, 1)).id,
        books[0]!.id,
        NOW,
      );
      expect((await fromRollUp()).days[TODAY]).toBe(3);
    });

    it('a day is rolled up only once it has been over for the grace period', async () => {
      await rollUpViewDays(h.db, TODAY * DAY_MS + ROLL_UP_GRACE_MS - 1);
      expect(await viewDaysUpto(h.db)).toBe((TODAY - 1) * DAY_MS);
      expect(await fromRollUp()).toEqual(await fromViews());
      await rollUpViewDays(h.db, TODAY * DAY_MS + ROLL_UP_GRACE_MS);
      expect(await viewDaysUpto(h.db)).toBe(TODAY * DAY_MS);
    });

    it('is idempotent, and roll-ups running at once count each day once', async () => {
      await Promise.all([rollUpViewDays(h.db, NOW), rollUpViewDays(h.db, NOW), rollUpViewDays(h.db, NOW)]);
      await rollUpViewDays(h.db, NOW);
      expect(await fromRollUp()).toEqual(await fromViews());
      const total = await h.db
        .selectFrom('view_days')
        .select((eb) => eb.fn.sum<number>('views').as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(total.n)).toBe(6);
    });

    it("a book's category change moves its rolled-up views; its deletion takes them out", async () => {
      await rollUpViewDays(h.db, NOW);
      await updateBook(h.db, books[0]!.file_name, { category_id: 2 });
      expect(await fromRollUp()).toEqual(await fromViews());
      expect((await fromRollUp()).categories).toEqual({ 1: 3, 2: 4 });
      await deleteBook(h.db, books[0]!.file_name);
      const after = await fromRollUp();
      expect(after).toEqual(await fromViews());
      expect(after.categories).toEqual({ 1: 3, 2: 2 });
    });

    it('rebuildViewDays (bulk loads) agrees with the roll-up; rebuilding the activity counts keeps it', async () => {
      await rebuildViewDays(h.db, NOW);
      const rebuilt = await viewDayRows();
      expect(await viewDaysUpto(h.db)).toBe(TODAY * DAY_MS);
      await rebuildActivityStats(h.db, NOW - 30 * DAY_MS);
      expect(await viewDaysUpto(h.db)).toBe(TODAY * DAY_MS);
      await h.db.deleteFrom('view_days').execute();
      await h.db.deleteFrom('stat_cuts').where('name', '=', 'view_days').execute();
      await rollUpViewDays(h.db, NOW);
      const rolled = await viewDayRows();
      expect(rolled.map(Object.values).map((r) => r.map(Number))).toEqual(
        rebuilt.map(Object.values).map((r) => r.map(Number)),
      );
    });

    it('waits for a first view; days without views are skipped, later days rolled up as they end', async () => {
      await h.db.deleteFrom('views').execute();
      await rollUpViewDays(h.db, NOW);
      expect(await viewDaysUpto(h.db)).toBeUndefined();
      const u = await upsertUser(h.db, { openId: 'z', platform: 'wx' }, 1);
      await recordView(h.db, u.id, books[2]!.id, NOW);
      await rollUpViewDays(h.db, NOW);
      expect(await viewDaysUpto(h.db)).toBe(TODAY * DAY_MS);
      await rollUpViewDays(h.db, NOW + 2 * DAY_MS);
      expect(await viewDaysUpto(h.db)).toBe((TODAY + 2) * DAY_MS);
      const rows = await h.db.selectFrom('view_days').selectAll().execute();
      expect(rows.map((r) => [Number(r.day), Number(r.category_id), Number(r.views)])).toEqual([
        [TODAY, 2, 1],
      ]);
    });
  },
);
