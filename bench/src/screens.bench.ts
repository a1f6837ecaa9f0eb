import { parseArgs } from 'node:util';
import { cityScatter, dashboardTotals, provinceMap, screenData, wordCloud } from '@readlib/catalog';
import { createDb } from '@readlib/data';
import { watchLoop } from './lib/loop-watch.js';

/**
 * pnpm --filter @readlib/bench run bench:screens --db .data/books-100000.db [--days 7,30] [--runs 3]
 *
 * The admin report screens (decisions.md §5) computed in-process on a seeded file: each is one
 * synchronous stretch of SQLite work in the admin service, during which it answers nobody. One warm-up
 * call, then the mean of `runs` calls, per screen and window.
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.data/books-100000.db' },
    days: { type: 'string', default: '7,30' },
    runs: { type: 'string', default: '3' },
  },
});

const h = createDb({ dialect: 'sqlite', file: values.db });
const now = Date.now();
// UTC report days, as seeded (seed.ts); an offset moves where days split, not what they cost
const utcOffsetMs = 0;
const runs = Number(values.runs);
for (const days of values.days.split(',').map(Number)) {
  const screens: Record<string, () => Promise<unknown>> = {
    '/screen/data': () => screenData(h.db, days, now, utcOffsetMs),
    '/screen/wordcloud': () => wordCloud(h.db, days, now, utcOffsetMs),
    '/screen/map': () => provinceMap(h.db, days, now, utcOffsetMs),
    '/screen/map/scatter': () => cityScatter(h.db, days, now, utcOffsetMs),
    '/dashboard': () => dashboardTotals(h.db),
  };
  for (const [screen, compute] of Object.entries(screens)) {
    await compute();
    const loop = watchLoop();
    let busyMs = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await compute();
      busyMs += performance.now() - t;
      await new Promise((r) => setTimeout(r, 2)); // lets the timer see each run's hold apart
    }
    const ms = busyMs / runs;
    const loopMaxMs = await loop.stop();
    const round = (x: number) => Math.round(x * 10) / 10;
    console.log(
      JSON.stringify({
        benchmark: 'screens',
        db: values.db,
        screen,
        days,
        ms: round(ms),
        loopMaxMs,
      }),
    );
  }
}
await h.destroy();
