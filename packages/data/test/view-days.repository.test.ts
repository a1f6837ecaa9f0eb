import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BookRow,
  categoryActivity,
  countAllViews,
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
const UTC = 0;
const HOUR = 3_600_000;

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
        days: Object.fromEntries(await dailyCounts(h.db, 'views', WINDOW.since, WINDOW.until, UTC)),
        categories: Object.fromEntries(perCategory.map((r) => [r.category_id, Number(r.n)])),
      };
    };
    const fromRollUp = async () => ({
      days: Object.fromEntries(await viewsPerDay(h.db, WINDOW.since, WINDOW.until, UTC)),
      categories: Object.fromEntries(
        (await categoryActivity(h.db, WINDOW.since, WINDOW.until, UTC))
          .filter((c) => c.views > 0)
          .map((c) => [c.id, c.views]),
      ),
    });

    /** The rolled-up rows, by day then category. */
    const viewDayRows = () =>
      h.db.selectFrom('view_days').selectAll().orderBy('day').orderBy('category_id').execute();
    const viewDayTuples = async () =>
      (await viewDayRows()).map((r) => [Number(r.day), Number(r.category_id), Number(r.views)]);

    /*
     * With REPORT_UTC_OFFSET, the same figures grouped by local day with plain arithmetic over the raw
     * views (not through the code under test): local day n of offset o begins at n * DAY_MS - o.
     */
    const localToday = (offset: number) => Math.floor((NOW + offset) / DAY_MS);
    const localWindow = (offset: number) => ({
      since: (localToday(offset) - 29) * DAY_MS - offset,
      until: (localToday(offset) + 1) * DAY_MS - offset,
    });
    const rawViews = () =>
      h.db
        .selectFrom('views')
        .innerJoin('books', 'books.id', 'views.book_id')
        .select(['views.created_at', 'books.category_id'])
        .execute();
    const count = (n: Record<string, number>, key: string | number) => {
      n[key] = (n[key] ?? 0) + 1;
    };
    /** What view_days must hold at `offset` once rolled up to `upto`: [day, category, views] rows. */
    const groupedByLocalDay = async (offset: number, upto: number) => {
      const n: Record<string, number> = {};
      for (const v of await rawViews())
        if (Number(v.created_at) < upto)
          count(n, `${Math.floor((Number(v.created_at) + offset) / DAY_MS)}/${v.category_id}`);
      return Object.entries(n)
        .map(([key, views]) => [...key.split('/').map(Number), views])
        .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    };
    const localFromViews = async (offset: number) => {
      const { since, until } = localWindow(offset);
      const days: Record<string, number> = {};
      const categories: Record<string, number> = {};
      for (const v of await rawViews()) {
        const t = Number(v.created_at);
        if (t < since || t >= until) continue;
        count(days, Math.floor((t + offset) / DAY_MS));
        count(categories, v.category_id);
      }
      return { days, categories };
    };
    const localFromRollUp = async (offset: number) => {
      const { since, until } = localWindow(offset);
      return {
        days: Object.fromEntries(await viewsPerDay(h.db, since, until, offset)),
        categories: Object.fromEntries(
          (await categoryActivity(h.db, since, until, offset))
            .filter((c) => c.views > 0)
            .map((c) => [c.id, c.views]),
        ),
      };
    };

    it('rolls up the days that are over, from the oldest view on; today is counted live', async () => {
      const live = await fromViews();
      expect(live.days).toEqual({ [TODAY - 20]: 2, [TODAY - 3]: 2, [TODAY - 1]: 1, [TODAY]: 2 });
      await rollUpViewDays(h.db, NOW, UTC);
      expect(await viewDaysUpto(h.db, UTC)).toBe(TODAY * DAY_MS);
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
      await rollUpViewDays(h.db, TODAY * DAY_MS + ROLL_UP_GRACE_MS - 1, UTC);
      expect(await viewDaysUpto(h.db, UTC)).toBe((TODAY - 1) * DAY_MS);
      expect(await fromRollUp()).toEqual(await fromViews());
      await rollUpViewDays(h.db, TODAY * DAY_MS + ROLL_UP_GRACE_MS, UTC);
      expect(await viewDaysUpto(h.db, UTC)).toBe(TODAY * DAY_MS);
    });

    it('is idempotent, and roll-ups running at once count each day once', async () => {
      await Promise.all([
        rollUpViewDays(h.db, NOW, UTC),
        rollUpViewDays(h.db, NOW, UTC),
        rollUpViewDays(h.db, NOW, UTC),
      ]);
      await rollUpViewDays(h.db, NOW, UTC);
      expect(await fromRollUp()).toEqual(await fromViews());
      const total = await h.db
        .selectFrom('view_days')
        .select((eb) => eb.fn.sum<number>('views').as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(total.n)).toBe(6);
    });

    it("a book's category change moves its rolled-up views; its deletion takes them out", async () => {
      await rollUpViewDays(h.db, NOW, UTC);
      await updateBook(h.db, books[0]!.file_name, { category_id: 2 });
      expect(await fromRollUp()).toEqual(await fromViews());
      expect((await fromRollUp()).categories).toEqual({ 1: 3, 2: 4 });
      await deleteBook(h.db, books[0]!.file_name);
      const after = await fromRollUp();
      expect(after).toEqual(await fromViews());
      expect(after.categories).toEqual({ 1: 3, 2: 2 });
    });

    it('counts every view ever as the views themselves count: before and after roll-ups, deletions, another offset', async () => {
      const counted = async () =>
        Number(
          (
            await h.db
              .selectFrom('views')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await counted()).toBe(8);
      // before any roll-up: the views themselves
      expect(await countAllViews(h.db, UTC)).toBe(8);
      await rollUpViewDays(h.db, NOW, UTC);
      // six views before today are rolled up, two of today are read
      expect(await countAllViews(h.db, UTC)).toBe(8);
      await recordView(
        h.db,
        (await upsertUser(h.db, { openId: 'd', platform: 'wx' }, 1)).id,
        books[2]!.id,
        NOW,
      );
      expect(await countAllViews(h.db, UTC)).toBe(9);
      // a deleted book's views leave the views and the rolled-up days alike (three of them)
      await deleteBook(h.db, books[0]!.file_name);
      expect(await counted()).toBe(6);
      expect(await countAllViews(h.db, UTC)).toBe(6);
      // the rows are another offset's: the views are counted, not those days
      expect(await countAllViews(h.db, 8 * HOUR)).toBe(6);
      await h.db.updateTable('view_days').set({ views: 1000 }).execute();
      expect(await countAllViews(h.db, 8 * HOUR)).toBe(6);
      // and at this offset the rolled-up days are what is read (here tampered with)
      expect(await countAllViews(h.db, UTC)).toBeGreaterThan(1000);
    });

    it('rebuildViewDays (bulk loads) agrees with the roll-up; rebuilding the activity counts keeps it', async () => {
      await rebuildViewDays(h.db, NOW, UTC);
      const rebuilt = await viewDayRows();
      expect(await viewDaysUpto(h.db, UTC)).toBe(TODAY * DAY_MS);
      await rebuildActivityStats(h.db, NOW - 30 * DAY_MS);
      expect(await viewDaysUpto(h.db, UTC)).toBe(TODAY * DAY_MS);
      await h.db.deleteFrom('view_days').execute();
      await h.db.deleteFrom('stat_cuts').where('name', '=', 'view_days').execute();
      await rollUpViewDays(h.db, NOW, UTC);
      const rolled = await viewDayRows();
      expect(rolled.map(Object.values).map((r) => r.map(Number))).toEqual(
        rebuilt.map(Object.values).map((r) => r.map(Number)),
      );
    });

    it('waits for a first view; days without views are skipped, later days rolled up as they end', async () => {
      await h.db.deleteFrom('views').execute();
      await rollUpViewDays(h.db, NOW, UTC);
      expect(await viewDaysUpto(h.db, UTC)).toBeUndefined();
      const u = await upsertUser(h.db, { openId: 'z', platform: 'wx' }, 1);
      await recordView(h.db, u.id, books[2]!.id, NOW);
      await rollUpViewDays(h.db, NOW, UTC);
      expect(await viewDaysUpto(h.db, UTC)).toBe(TODAY * DAY_MS);
      await rollUpViewDays(h.db, NOW + 2 * DAY_MS, UTC);
      expect(await viewDaysUpto(h.db, UTC)).toBe((TODAY + 2) * DAY_MS);
      const rows = await h.db.selectFrom('view_days').selectAll().execute();
      expect(rows.map((r) => [Number(r.day), Number(r.category_id), Number(r.views)])).toEqual([
        [TODAY, 2, 1],
      ]);
    });
    it.each([
      ['+08:00', 8 * HOUR],
      ['-05:00', -5 * HOUR],
      ['+05:45', 5.75 * HOUR],
    ])(
      'decisions.md §5, REPORT_UTC_OFFSET %s: the rolled-up days are the raw views grouped by local day',
      async (_, offset) => {
        await rollUpViewDays(h.db, NOW, offset);
        const upto = localToday(offset) * DAY_MS - offset;
        expect(await viewDaysUpto(h.db, offset)).toBe(upto);
        // rows of these local days are not UTC days: read from the views at +00:00
        expect(await viewDaysUpto(h.db, UTC)).toBeUndefined();
        expect(await viewDayTuples()).toEqual(await groupedByLocalDay(offset, upto));
        expect(await localFromRollUp(offset)).toEqual(await localFromViews(offset));
        expect(await localFromRollUp(UTC)).toEqual(await fromViews());
      },
    );

    it('decisions.md §5: at +08:00 the day runs from 16:00 UTC; yesterday 23:00 UTC is today', async () => {
      await rollUpViewDays(h.db, NOW, 8 * HOUR);
      const live = await localFromRollUp(8 * HOUR);
      // today (local 2026-03-10): at(1, 23), at(0, 1), at(0, 14); yesterday none; 3 days ago 09:00 local
      expect(live.days).toEqual({ [TODAY - 20]: 2, [TODAY - 3]: 2, [TODAY]: 3 });
      expect(live).toEqual(await localFromViews(8 * HOUR));
    });

    it('decisions.md §5: a view at 2026-11-22T17:00Z is rolled up as 2026-11-23 at +08:00, 2026-11-22 at +00:00 and -05:00', async () => {
      await h.db.deleteFrom('views').execute();
      const u = await upsertUser(h.db, { openId: 'z', platform: 'wx' }, 1);
      await recordView(h.db, u.id, books[2]!.id, Date.UTC(2026, 10, 22, 17));
      const now = Date.UTC(2026, 10, 24, 1);
      const dayOfDate = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
      for (const [offset, date] of [
        [8 * HOUR, '2026-11-23'],
        [UTC, '2026-11-22'],
        [-5 * HOUR, '2026-11-22'],
        [8 * HOUR, '2026-11-23'],
      ] as const) {
        await rollUpViewDays(h.db, now, offset);
        expect(await viewDayTuples(), `${offset}`).toEqual([[dayOfDate(date), 2, 1]]);
      }
    });

    it('decisions.md §5: changing the offset between two roll-ups re-keys the rows, without counting a view twice', async () => {
      await rollUpViewDays(h.db, NOW, UTC);
      expect(await viewDayTuples()).toEqual(await groupedByLocalDay(UTC, TODAY * DAY_MS));
      // before a roll-up at +08:00, a +08:00 window is read from the views, not from UTC days
      expect(await localFromRollUp(8 * HOUR)).toEqual(await localFromViews(8 * HOUR));
      await rollUpViewDays(h.db, NOW, 8 * HOUR);
      const upto = localToday(8 * HOUR) * DAY_MS - 8 * HOUR;
      expect(await viewDaysUpto(h.db, 8 * HOUR)).toBe(upto);
      expect(await viewDayTuples()).toEqual(await groupedByLocalDay(8 * HOUR, upto));
      const total = (await viewDayTuples()).reduce((sum, r) => sum + r[2]!, 0);
      expect(total).toBe((await rawViews()).filter((v) => Number(v.created_at) < upto).length);
      expect(await localFromRollUp(8 * HOUR)).toEqual(await localFromViews(8 * HOUR));
      // a category change and a deletion adjust the days the rows are keyed by (+08:00)
      await updateBook(h.db, books[0]!.file_name, { category_id: 2 });
      expect(await viewDayTuples()).toEqual(await groupedByLocalDay(8 * HOUR, upto));
      await deleteBook(h.db, books[1]!.file_name);
      expect(await viewDayTuples()).toEqual(await groupedByLocalDay(8 * HOUR, upto));
      // and back
      await rollUpViewDays(h.db, NOW, UTC);
      expect(await viewDaysUpto(h.db, 8 * HOUR)).toBeUndefined();
      expect(await viewDayTuples()).toEqual(await groupedByLocalDay(UTC, TODAY * DAY_MS));
      expect(await fromRollUp()).toEqual(await fromViews());
    });

    it('decisions.md §5: roll-ups at two offsets at once end, leaving the rows of one offset, exactly', async () => {
      await Promise.all([
        rollUpViewDays(h.db, NOW, UTC),
        rollUpViewDays(h.db, NOW, 8 * HOUR),
        rollUpViewDays(h.db, NOW, 8 * HOUR),
        rollUpViewDays(h.db, NOW, UTC),
      ]);
      const marker = await h.db
        .selectFrom('stat_cuts')
        .select(['upto', 'utc_offset_ms'])
        .where('name', '=', 'view_days')
        .executeTakeFirstOrThrow();
      const offset = Number(marker.utc_offset_ms);
      expect(await viewDayTuples()).toEqual(await groupedByLocalDay(offset, Number(marker.upto)));
      for (const o of [UTC, 8 * HOUR]) expect(await localFromRollUp(o)).toEqual(await localFromViews(o));
    });

    it('decisions.md §5: rebuildViewDays at +08:00 agrees with the roll-up at +08:00', async () => {
      await rebuildViewDays(h.db, NOW, 8 * HOUR);
      const rebuilt = await viewDayTuples();
      expect(await viewDaysUpto(h.db, 8 * HOUR)).toBe(localToday(8 * HOUR) * DAY_MS - 8 * HOUR);
      await rollUpViewDays(h.db, NOW, UTC);
      await rollUpViewDays(h.db, NOW, 8 * HOUR);
      expect(await viewDayTuples()).toEqual(rebuilt);
    });
  },
);
