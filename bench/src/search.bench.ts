import { parseArgs } from 'node:util';
import { PublicUrls, type ReaderContext, ReaderKeeps, search } from '@readlib/catalog';
import { createDb, directWrites, likeScanIds } from '@readlib/data';
import { pick, rng } from './lib/gen.js';
import { machine, percentile, writeResult } from './lib/report.js';
import { sampleOf } from './lib/servers.js';
import { dbConfigOf } from './lib/sink.js';

/**
 * pnpm --filter @readlib/bench run bench:search --db .data/books-100000.db [--keywords 1000]
 *
 * 1,000 keywords drawn from the data (substrings of titles and authors, Latin 3-8 characters, CJK 1-3
 * characters, whole publisher names) plus misses, each run through the reader search service (books page
 * 1, author / publisher / category facets, the search-log write) and through a `LIKE '%kw%'` scan of the
 * same catalogue, in the same run. Latencies in milliseconds.
 */
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: '.data/books-100000.db' },
    keywords: { type: 'string', default: '1000' },
    like: { type: 'string', default: '1000', description: 'how many of the keywords also run the LIKE scan' },
  },
});
const db = values.db;
const count = Number(values.keywords);
const s = await sampleOf(db, 3000);
const r = rng(5);

export function keywords(n: number): Array<{ kw: string; kind: string }> {
  const out: Array<{ kw: string; kind: string }> = [];
  const sub = (text: string, len: number) => {
    const chars = Array.from(text);
    const i = Math.floor(r() * Math.max(1, chars.length - len + 1));
    return chars
      .slice(i, i + len)
      .join('')
      .trim();
  };
  while (out.length < n) {
    const x = r();
    const src = pick(r, r() < 0.6 ? s.titles : s.authors);
    const cjk = /[\u3040-\u9fff]/u.test(src);
    let kw: string;
    let kind: string;
    if (x < 0.1) {
      kw =
        r() < 0.5
          ? `zq${Math.floor(r() * 1e6).toString(36)}`
          : pick(r, ['鬱', '鑫', '龘', '齉', '饕餮', '魑魅']);
      kind = 'miss';
    } else if (cjk) {
      const len = 1 + Math.floor(r() * 3);
      kw = sub(src, len);
      kind = `cjk-${Array.from(kw).length}`;
    } else {
      kw = sub(src, 3 + Math.floor(r() * 6));
      kind = 'latin';
    }
    if (kw) out.push({ kw, kind });
  }
  return out;
}

const list = keywords(count);
// opened as the services open it (PostgreSQL: versions read only when a commit was heard)
const h = createDb(dbConfigOf(db), { commitNotifications: {} });
await h.commitListener?.ready;
// the keeps as the app wires them (category counts, the most frequent facet values); each keyword is
// searched once, so no answer is served from a keep
const ctx: ReaderContext = {
  db: h.db,
  urls: new PublicUrls('http://localhost:3000'),
  now: Date.now,
  writes: directWrites(h.db),
  keeps: new ReaderKeeps(),
  reportError: (err, what) => console.error(what, err),
};
// warm the page cache and prepared paths a little (not recorded)
for (const { kw } of list.slice(0, 20)) await search(ctx, { keyword: kw });

const times: number[] = [];
const byKind = new Map<string, number[]>();
for (const { kw, kind } of list) {
  const t = performance.now();
  await search(ctx, { keyword: kw, openId: 'bench-user-1' });
  const ms = performance.now() - t;
  times.push(ms);
  byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
}
const likeTimes: number[] = [];
const pairs: number[] = [];
for (const [i, { kw }] of list.slice(0, Number(values.like)).entries()) {
  const t = performance.now();
  await likeScanIds(h.db, kw).execute();
  const ms = performance.now() - t;
  likeTimes.push(ms);
  pairs.push(ms / times[i]!);
}
// a search's line is written after its answer
await ctx.writes.drain();
await h.destroy();

const stat = (a: number[]) => {
  const sorted = [...a].sort((x, y) => x - y);
  return {
    n: a.length,
    p50: Number(percentile(sorted, 50).toFixed(2)),
    p99: Number(percentile(sorted, 99).toFixed(2)),
    max: Number(sorted.at(-1)!.toFixed(2)),
    mean: Number((a.reduce((x, y) => x + y, 0) / a.length).toFixed(2)),
  };
};
const indexed = stat(times);
const like = stat(likeTimes);
writeResult('search', {
  machine: machine(),
  db: db.replace(/\/\/[^@]*@/, '//'),
  books: s.books,
  indexed,
  byKind: Object.fromEntries([...byKind].sort().map(([k, v]) => [k, stat(v)])),
  likeScan: like,
  speedup: {
    p50: Number((like.p50 / indexed.p50).toFixed(1)),
    total: Number(
      (
        likeTimes.reduce((a, b) => a + b, 0) / times.slice(0, likeTimes.length).reduce((a, b) => a + b, 0)
      ).toFixed(1),
    ),
    perKeywordMedian: Number(
      percentile(
        [...pairs].sort((a, b) => a - b),
        50,
      ).toFixed(1),
    ),
  },
});
