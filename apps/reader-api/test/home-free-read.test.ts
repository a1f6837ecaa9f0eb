import { FREE_READ_POOL, FREE_READ_ROUND_MS } from '@readlib/catalog';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialects, get, type Harness, harness, seedBooks } from './helpers.js';

// Issue: performance — the home page's freeRead (decisions.md §3 "Home": 4 books) draws from a pool of 64
// books drawn uniformly from the catalogue each minute and after every catalogue change; the
// freeRead/v2 button ("another batch", a uniform draw from the whole catalogue) is unchanged.
describe.each(dialects)('home freeRead pool on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  /** the distinct books `times` answers of the path showed (each 4 books) */
  const shown = async (path: string, section: (data: never) => Array<{ fileName: string }>, times = 40) => {
    const seen = new Set<string>();
    for (let i = 0; i < times; i++) {
      const res = await get(t, path, { openId: 'anyone' });
      expect(res.status).toBe(200);
      const books = section(res.body.data as never);
      expect(books).toHaveLength(4);
      for (const b of books) seen.add(b.fileName);
    }
    return seen;
  };
  const home = () => shown('/book/home/v2', (d: { freeRead: Array<{ fileName: string }> }) => d.freeRead);

  it('draws from 64 books a minute, another 64 the next minute; freeRead/v2 from every book', async () => {
    await seedBooks(t, 100);
    // 160 books shown: from every one of 100 books some 80 distinct ones would show, from 64 at most 64
    const first = await home();
    expect(first.size).toBeLessThanOrEqual(FREE_READ_POOL);
    expect(first.size).toBeGreaterThan(4);
    t.clock.now += FREE_READ_ROUND_MS;
    const next = await home();
    expect(next.size).toBeLessThanOrEqual(FREE_READ_POOL);
    expect(new Set([...first, ...next]).size).toBeGreaterThan(FREE_READ_POOL);
    expect((await shown('/book/home/freeRead/v2', (d) => d)).size).toBeGreaterThan(FREE_READ_POOL);
  });

  it('is drawn again as soon as the catalogue changes, within the same minute', async () => {
    const before = new Set((await seedBooks(t, 10)).map((b) => b.file_name));
    expect([...(await home())].every((f) => before.has(f))).toBe(true);
    await seedBooks(t, 90);
    expect([...(await home())].some((f) => !before.has(f))).toBe(true);
  });
});
