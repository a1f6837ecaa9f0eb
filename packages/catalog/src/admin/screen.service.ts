import type { MapItem, ScatterData, ScreenData, WordCloudItem } from '@readlib/contracts';
import {
  categoryActivity,
  countAllViews,
  countBooks,
  countCreated,
  DAY_MS,
  type Database,
  dailyCounts,
  type EventTable,
  reportDay,
  reportDayStart,
  rollUpViewDays,
  topKeywordCounts,
  topKeywords,
  topReadBooks,
  usersBy,
  viewsPerDay,
} from '@readlib/data';
import type { Kysely } from 'kysely';
import { lookupCity } from './gazetteer.js';

/**
 * The report window of decisions.md §5, in whole report days (days beginning at midnight
 * REPORT_UTC_OFFSET, `utcOffsetMs` east of UTC): `days` days ending with today (today included), so
 * days=1 is today alone. `today`/`first` are day numbers; `start`/`end` epoch ms, end exclusive.
 */
export function screenWindow(days: number, now: number, utcOffsetMs: number) {
  const today = reportDay(now, utcOffsetMs);
  const first = today - days + 1;
  return {
    today,
    first,
    start: reportDayStart(first, utcOffsetMs),
    end: reportDayStart(today + 1, utcOffsetMs),
    utcOffsetMs,
  };
}

/** The local date of a report day: its number counts days from the epoch at that offset. */
const label = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** (current - previous) / max(previous, 1): 0 when flat, 1 for a doubling, and finite when previous is 0. */
export const growthRatio = (current: number, previous: number) =>
  (current - previous) / Math.max(previous, 1);

/** What the screens count, each a table of dated rows. */
const ACTIVITY_TABLES = {
  user: 'users',
  shelf: 'shelf_entries',
  rank: 'ratings',
  view: 'views',
  search: 'search_log',
} as const satisfies Record<string, EventTable>;

/**
 * The rows of each table created in [since, until), or ever without bounds: every view ever is then
 * the rolled-up days' sum plus the days since (countAllViews), not a count of the whole history.
 */
async function activity(db: Kysely<Database>, utcOffsetMs: number, since?: number, until?: number) {
  const entries = await Promise.all(
    Object.entries(ACTIVITY_TABLES).map(async ([key, table]) => {
      const whole = since === undefined && until === undefined && table === 'views';
      return [
        key,
        whole ? await countAllViews(db, utcOffsetMs) : await countCreated(db, table, since, until),
      ] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<keyof typeof ACTIVITY_TABLES, number>;
}

async function trend(db: Kysely<Database>, table: 'users' | 'views', w: ReturnType<typeof screenWindow>) {
  const counts =
    table === 'views'
      ? await viewsPerDay(db, w.start, w.end, w.utcOffsetMs)
      : await dailyCounts(db, table, w.start, w.end, w.utcOffsetMs);
  const axis: string[] = [];
  const values: number[] = [];
  for (let d = w.first; d <= w.today; d++) {
    axis.push(label(d));
    values.push(counts.get(d) ?? 0);
  }
  return { axis, values };
}

/** GET /screen/data (decisions.md §5), in report days `utcOffsetMs` east of UTC. */
export async function screenData(
  db: Kysely<Database>,
  days: number,
  now: number,
  utcOffsetMs: number,
): Promise<ScreenData> {
  const w = screenWindow(days, now, utcOffsetMs);
  // days that are over are counted once (view_days), so a window reads their totals, not their views
  await rollUpViewDays(db, now, utcOffsetMs);
  const todayStart = reportDayStart(w.today, utcOffsetMs);
  const [all, book, today, lastDay, windowUsers, previousUsers] = await Promise.all([
    activity(db, utcOffsetMs),
    countBooks(db),
    activity(db, utcOffsetMs, todayStart, todayStart + DAY_MS),
    activity(db, utcOffsetMs, todayStart - DAY_MS, todayStart),
    countCreated(db, 'users', w.start, w.end),
    countCreated(db, 'users', w.start - days * DAY_MS, w.start),
  ]);
  const [userTrend, viewTrend, categories, topBooks, keywords] = await Promise.all([
    trend(db, 'users', w),
    trend(db, 'views', w),
    categoryActivity(db, w.start, w.end, utcOffsetMs),
    topReadBooks(db, w.start, 10, w.end),
    topKeywordCounts(db, w.start, 10, w.end),
  ]);
  return {
    totals: { book, ...all },
    today,
    lastDay,
    growth: {
      userLastDay: growthRatio(today.user, lastDay.user),
      // the window against the window of the same length just before it
      userLastMonth: growthRatio(windowUsers, previousUsers),
    },
    userTrend,
    viewTrend,
    category: categories
      .filter((c) => c.num > 0 || c.views > 0)
      .map((c) => ({ category: c.id, categoryText: c.name, num: c.num, views: c.views })),
    topBooks: topBooks.map((b, i) => ({ no: i + 1, ...b })),
    topSearches: keywords.map((k, i) => ({ no: i + 1, keyword: k.keyword, count: k.count })),
  };
}

/** GET /screen/wordcloud: keywords of the window, most searched first, at most 100. */
export async function wordCloud(
  db: Kysely<Database>,
  days: number,
  now: number,
  utcOffsetMs: number,
): Promise<WordCloudItem[]> {
  const w = screenWindow(days, now, utcOffsetMs);
  const rows = await topKeywords(db, w.start, 100, w.end);
  return rows.map((k) => ({ word: k.keyword, count: k.count, user: k.users }));
}

/** GET /screen/map: users registered in the window, per province of their profile. */
export async function provinceMap(
  db: Kysely<Database>,
  days: number,
  now: number,
  utcOffsetMs: number,
): Promise<MapItem[]> {
  const w = screenWindow(days, now, utcOffsetMs);
  return usersBy(db, 'province', w.start, w.end);
}

/** GET /screen/map/scatter: users registered in the window per city; coordinates for known cities. */
export async function cityScatter(
  db: Kysely<Database>,
  days: number,
  now: number,
  utcOffsetMs: number,
): Promise<ScatterData> {
  const w = screenWindow(days, now, utcOffsetMs);
  const data = await usersBy(db, 'city', w.start, w.end);
  const geo: Record<string, [number, number]> = {};
  for (const { name } of data) {
    const at = lookupCity(name);
    if (at) geo[name] = at;
  }
  return { data, geo };
}
