import { parseArgs } from 'node:util';
import { cityScatter, dashboardTotals, provinceMap, screenData, wordCloud } from '@readlib/catalog';
import { createDb } from '@readlib/data';

/**
 * pnpm --filter @readlib/bench run bench:screens -- --db .data/books-100000.db [--days 7,30] [--runs 3]
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
const runs = Number(values.runs);
for (const days of values.days.split(',').map(Number)) {
  const screens: Record<string, () => Promise<unknown>> = {
    '/screen/data': () => screenData(h.db, days, now),
    '/screen/wordcloud': () => wordCloud(h.db, days, now),
    '/screen/map': () => provinceMap(h.db, days, now),
    '/screen/map/scatter': () => cityScatter(h.db, days, now),
    '/dashboard': () => dashboardTotals(h.db),
  };
  for (const [screen, compute] of Object.entries(screens)) {
    await compute();
    const started = performance.now();
    for (let i = 0; i < runs; i++) await compute();
    const ms = (performance.now() - started) / runs;
    console.log(JSON.stringify({ benchmark: 'screens', db: values.db, screen, days, ms: Math.round(ms * 10) / 10 }));
  }
}
await h.destroy();
