import { parseArgs } from 'node:util';
import { BookCategories, topCategories } from '@readlib/catalog';
import { createDb } from '@readlib/data';

/**
 * pnpm --filter @readlib/bench run bench:categories --db .data/books-1000000.db [--page 50000,10000]
 *
 * The reader's in-memory book → category index (BookCategories) loading on first use: how long until
 * it is ready, and how long each page holds the event loop (the requests served meanwhile wait that
 * long). Each page size is loaded three times, cold first, on a fresh connection each time.
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.data/books-1000000.db' },
    page: { type: 'string', default: '50000,10000' },
  },
});

for (const pageSize of values.page.split(',').map(Number)) {
  for (let run = 0; run < 3; run++) {
    const h = createDb({ dialect: 'sqlite', file: values.db });
    const index = new BookCategories(true, pageSize);
    // a 1 ms timer re-armed until the index is ready: each late firing is the loop held by a page
    const lateMs: number[] = [];
    const t = performance.now();
    index.ready(h.db);
    while (!index.ready(h.db)) {
      const armed = performance.now();
      await new Promise((r) => setTimeout(r, 1));
      lateMs.push(performance.now() - armed - 1);
    }
    const ms = performance.now() - t;
    lateMs.sort((a, b) => a - b);
    const books = topCategories([1, 2, 3], (id) => index.of(id), 3).length;
    console.log(
      JSON.stringify({
        benchmark: 'book-categories',
        db: values.db,
        pageSize,
        run: run === 0 ? 'cold' : 'warm',
        readyMs: Math.round(ms),
        pages: lateMs.length,
        maxLoopBlockMs: Math.round(lateMs.at(-1) ?? 0),
        medianLoopBlockMs: Math.round(lateMs[Math.floor(lateMs.length / 2)] ?? 0),
        rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
        sample: books,
      }),
    );
    await h.destroy();
  }
}
