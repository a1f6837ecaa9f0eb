import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import {
  bookSearchColumns,
  createDb,
  DEFAULT_CATEGORIES,
  optimizeSearchIndexes,
  rebuildActivityStats,
  rebuildBookValues,
  rebuildCategoryCounts,
  rebuildViewDays,
} from '@readlib/data';
import {
  CITIES,
  makeBookFactory,
  PROVINCES,
  pick,
  type Row,
  rng,
  skewedBook,
  userNick,
} from './lib/index.js';
import { dbConfigOf, openSink } from './lib/sink.js';

/**
 * pnpm bench:seed --books N [--db <sqlite file | postgres url>] [--activity 1]
 *
 * A catalogue of N books with users, shelf entries, ratings, views and searches scaled with it. At
 * --activity 1 (the default) per N books: N users, 10N shelf entries, 5N ratings, 20N views over 60
 * days (power-law skew: some books are hot), 5N searches. --activity 0.2 keeps the catalogue at N and
 * scales only the activity.
 */
const { values } = parseArgs({
  options: {
    books: { type: 'string', default: '10000' },
    db: { type: 'string' },
    activity: { type: 'string', default: '1' },
    now: { type: 'string' },
  },
});
const n = Number(values.books);
const activity = Number(values.activity);
const db = values.db ?? `.data/books-${n}.db`;
const DAY = 86_400_000;
const now = values.now ? Number(values.now) : Date.now();

export const SHELF_PER_USER = 10;
export const RATINGS_PER_USER = 5;

const started = process.hrtime.bigint();
const lap = (() => {
  let last = process.hrtime.bigint();
  return (what: string, rows?: number) => {
    const t = process.hrtime.bigint();
    console.error(
      `${what.padEnd(14)} ${(Number(t - last) / 1e9).toFixed(1).padStart(6)} s${rows ? `  ${rows.toLocaleString('en')} rows` : ''}`,
    );
    last = t;
  };
})();

const sink = await openSink(db);
lap('migrate');

// books
const makeBook = makeBookFactory(n, DEFAULT_CATEGORIES.length - 1);
const titles: string[] = [];
const authors: string[] = [];
function* books(): Iterable<Row> {
  for (let i = 0; i < n; i++) {
    const b = makeBook(i);
    const search = bookSearchColumns(b);
    if (i % 50 === 0) titles.push(b.title);
    if (i % 200 === 0) authors.push(b.author);
    const created = now - 400 * DAY + Math.floor((i / n) * 390 * DAY);
    yield [
      i + 1,
      b.file_name,
      b.title,
      b.author,
      b.publisher,
      b.language,
      b.category_id,
      b.root_file,
      b.cover_path,
      `epub/${b.file_name}.epub`,
      `unzip/${b.file_name}`,
      `${b.title.slice(0, 40)}.epub`,
      i + 1,
      search.grams,
      search.title_nfkc,
      search.author_nfkc,
      search.publisher_nfkc,
      created,
      created,
    ];
  }
}
const bookCols = [
  'id:int',
  'file_name',
  'title',
  'author',
  'publisher',
  'language',
  'category_id:int',
  'root_file',
  'cover_path',
  'file_path',
  'unzip_path',
  'original_name',
  'pos:int',
  'grams',
  'title_nfkc',
  'author_nfkc',
  'publisher_nfkc',
  'created_at:bigint',
  'updated_at:bigint',
];
lap('books', await sink.insert('books', bookCols, books()));
await sink.afterBooks();
await sink.exec(`update counters set value = ${n} where name = 'books'`);
lap('search index');

// users
const users = Math.max(100, Math.round(n * activity));
const ru = rng(7);
function* userRows(): Iterable<Row> {
  for (let i = 0; i < users; i++) {
    const created = now - 420 * DAY + Math.floor((i / users) * 419 * DAY);
    const p = Math.floor(ru() * PROVINCES.length);
    yield [
      i + 1,
      `bench-user-${i + 1}`,
      i % 5 === 0 ? 'my' : 'wx',
      `https://thirdwx.qlogo.cn/mmopen/${i + 1}/132`,
      userNick(ru, i),
      i % 3,
      p < 8 ? 'China' : 'Other',
      PROVINCES[p]!,
      CITIES[p]!,
      p < 8 ? 'zh_CN' : 'en',
      created,
      created,
    ];
  }
}
lap(
  'users',
  await sink.insert(
    'users',
    [
      'id:int',
      'open_id',
      'platform',
      'avatar_url',
      'nick_name',
      'gender:int',
      'country',
      'province',
      'city',
      'language',
      'created_at:bigint',
      'updated_at:bigint',
    ],
    userRows(),
  ),
);

/** per user, `per` distinct books on average (0..2per), skewed towards popular ones */
function* pairs(seed: number, per: number, extra: (r: () => number, t: number) => Row): Iterable<Row> {
  const r = rng(seed);
  for (let u = 1; u <= users; u++) {
    const k = Math.min(n, Math.floor(r() * (2 * per + 1)));
    const seen = new Set<number>();
    while (seen.size < k) seen.add(skewedBook(r, n, 2));
    for (const b of seen) yield [u, b, ...extra(r, now - Math.floor(r() * 60 * DAY))];
  }
}
lap(
  'shelf_entries',
  await sink.insert(
    'shelf_entries',
    ['user_id:int', 'book_id:int', 'created_at:bigint'],
    pairs(11, SHELF_PER_USER, (_r, t) => [t]),
  ),
);
lap(
  'ratings',
  await sink.insert(
    'ratings',
    ['user_id:int', 'book_id:int', 'rank:int', 'created_at:bigint', 'updated_at:bigint'],
    pairs(13, RATINGS_PER_USER, (r, t) => [1 + Math.min(4, Math.floor(r() * 5.5)), t, t]),
  ),
);

// views: a log in time order over 60 days; hot books take most of them
const viewCount = Math.round(20 * n * activity);
const rv = rng(17);
function* views(): Iterable<Row> {
  const start = now - 60 * DAY;
  for (let i = 0; i < viewCount; i++) {
    const t = start + Math.floor(((i + rv()) / viewCount) * 60 * DAY);
    yield [1 + Math.floor(rv() ** 1.5 * users), skewedBook(rv, n, 3), t];
  }
}
lap('views', await sink.insert('views', ['user_id:int', 'book_id:int', 'created_at:bigint'], views()));
await sink.exec(
  'insert into book_readers (book_id, user_id, last_viewed_at) select book_id, user_id, max(created_at) from views group by user_id, book_id',
);
lap('book_readers');

// searches: keywords drawn from titles and authors (whole words, substrings, 1-2 CJK characters)
const searchCount = Math.round(5 * n * activity);
const rs = rng(19);
const keywordPool = Array.from({ length: 2000 }, () =>
  keywordFrom(rs, rs() < 0.7 ? pick(rs, titles) : pick(rs, authors)),
);
function* searches(): Iterable<Row> {
  const start = now - 60 * DAY;
  for (let i = 0; i < searchCount; i++) {
    const t = start + Math.floor(((i + rs()) / searchCount) * 60 * DAY);
    const kw = keywordPool[Math.floor(rs() ** 2.5 * keywordPool.length)]!;
    yield [kw, rs() < 0.7 ? `bench-user-${1 + Math.floor(rs() * users)}` : null, t];
  }
}
lap('search_log', await sink.insert('search_log', ['keyword', 'open_id', 'created_at:bigint'], searches()));
await sink.finish();
lap('analyze');
// hot lists and the well-rated pool read maintained counts: rebuild them from the logs just written
{
  const h = createDb(dbConfigOf(db));
  await rebuildActivityStats(h.db, now - 30 * DAY);
  // in UTC report days (REPORT_UTC_OFFSET's default); another offset re-rolls them at its first screen
  await rebuildViewDays(h.db, now, 0);
  lap('activity stats');
  // the search facets' value table and the category counts, which insertBook maintains and this bulk
  // load bypassed
  await rebuildBookValues(h.db);
  await rebuildCategoryCounts(h.db);
  lap('facet values');
  // as `pnpm cli import` leaves a bulk import: the search indexes merged into one segment each
  await optimizeSearchIndexes(h.db);
  await h.destroy();
  lap('search indexes merged');
}

export function keywordFrom(r: () => number, text: string): string {
  const chars = Array.from(text);
  const cjk = /[\u3040-\u9fff]/u.test(text);
  const len = cjk ? 1 + Math.floor(r() * 3) : 3 + Math.floor(r() * 6);
  const at = Math.floor(r() * Math.max(1, chars.length - len));
  return (
    chars
      .slice(at, at + len)
      .join('')
      .trim() || text
  );
}

console.log(
  JSON.stringify({
    benchmark: 'seed',
    db: db.replace(/\/\/[^@]*@/, '//'),
    machine: `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
    books: n,
    users,
    activity,
    views: viewCount,
    searches: searchCount,
    seconds: Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)),
  }),
);
