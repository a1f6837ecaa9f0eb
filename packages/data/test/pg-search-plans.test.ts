import { BOOK_LIST_SORT_FIELDS, type BookListSortField } from '@readlib/contracts';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookSearchColumns,
  createDb,
  type Database,
  type DbConfig,
  type DbHandle,
  listBooksAdmin,
  logSearch,
  logSearches,
  rebuildBookValues,
  searchBooks,
  searchFacet,
  searchList,
} from '../src/index.js';
import { sampleBook, sentToPostgres, testDialects } from '../src/testing/index.js';

// The search statements of PostgreSQL read their matches through the trigram and gram indexes and
// walk the primary key in id order, each step only when the one before did not answer
// (pg-search-page.ts). A catalogue of 20,000 books holds a substring for each step; the plan each
// search ran (EXPLAIN ANALYZE, FORMAT JSON) is checked node by node, and its page against one
// computed here. The plans are taken with sequential scans disabled: at 20,000 books reading a few
// hundred matches costs the planner about as much as reading the table, so the honest question
// here is whether an index can serve each read (a condition spelled so that none can still shows a
// Seq Scan). At 100k books the planner picks these indexes by itself: no sequential scan of books in
// the page statements of bench:search's 840 distinct keywords.
const dialects = await testDialects();
const postgres = dialects.find((d) => d.name === 'postgres');

const N = 20_000;
interface SeededBook {
  id: number;
  title: string;
  author: string;
  publisher: string;
}

function seededBook(i: number): SeededBook {
  let title = `Volume ${i}`;
  if (i % 3 === 0) title += ' common'; // a third of the books: the first walk fills the page
  if (i === 5000 || i === 12_000 || i === 19_000) title += ' zephyr'; // three: read from the index
  if (i >= 300 && i % 30 === 0) title += ' middling'; // 650 from id 300 on: the second walk
  if (i > N - 600) title += ' clustered'; // 600 at the end: every match read and sorted
  if (i % 50 === 0) title += ' sparse'; // one in 50, 4 in the first walk: the second walk goes first
  if (i % 20 === 0) title += ' glow of ember'; // both words of the phrase below, apart
  if (i === 777) title += ' ember glow'; // the phrase itself, once
  let author = i % 7 === 0 ? `龍 ${i % 50}` : `Author ${i % 2000}`;
  if (i === 7001 || i === 15_001) author = '鳳 Writer';
  if (i === 8000) author = 'Zephyr Jones';
  return { id: i, title, author, publisher: `Press ${i % 40}` };
}

const books = Array.from({ length: N }, (_, k) => seededBook(k + 1));

async function seed(db: Kysely<Database>): Promise<void> {
  const now = Date.now();
  for (let from = 0; from < N; from += 1000) {
    await db
      .insertInto('books')
      .values(
        books.slice(from, from + 1000).map((b) => ({
          ...sampleBook({ title: b.title, author: b.author, publisher: b.publisher, category_id: 1 }),
          id: b.id,
          pos: b.id,
          ...bookSearchColumns(b),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  await rebuildBookValues(db);
  await sql`analyze books`.execute(db);
  await sql`analyze book_values`.execute(db);
}

/** The page searchBooks must answer: title matches by id, then author or publisher matches by id. */
function expectedPage(keyword: string, limit = 20): number[] {
  const kw = keyword.toLowerCase();
  const has = (s: string) => s.toLowerCase().includes(kw);
  const titled = books.filter((b) => has(b.title)).map((b) => b.id);
  const rest = books.filter((b) => !has(b.title) && (has(b.author) || has(b.publisher))).map((b) => b.id);
  return [...titled, ...rest].slice(0, limit);
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Subplan Name'?: string;
  'Actual Loops': number;
  'Actual Rows': number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) nodesOf(child, out);
  return out;
}

interface Ran {
  nodes: PlanNode[];
  /** the nodes of one CTE's plan */
  cte(name: string): PlanNode[];
}

describe.skipIf(!postgres)('search statements on PostgreSQL', () => {
  let h: DbHandle & { config: DbConfig };
  beforeAll(async () => {
    h = await postgres!.create();
    await seed(h.db);
  }, 120_000);
  afterAll(async () => h?.destroy());

  /** The nodes of a statement's plan as it runs, sequential scans disabled (see the top). */
  async function explained(text: string, values: unknown[]): Promise<PlanNode[]> {
    return h.db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        const { rows } = await conn.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`explain (analyze, format json) ${text}`, values),
        );
        return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
      } finally {
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
  }

  /**
   * The plan a prepared statement runs once PostgreSQL keeps a generic one (after five executions):
   * planned without its values, as `plan_cache_mode = force_generic_plan` shows at once.
   */
  async function explainedGeneric(text: string, values: unknown[]): Promise<PlanNode[]> {
    return h.db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
      try {
        await conn.executeQuery(CompiledQuery.raw(`prepare generic_plan as ${text}`));
        const literals = values.map((v) => (typeof v === 'number' ? String(v) : pg.escapeLiteral(String(v))));
        const { rows } = await conn.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`explain (analyze, format json) execute generic_plan(${literals.join(', ')})`),
        );
        return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
      } finally {
        await sql`deallocate generic_plan`.execute(conn);
        await sql`reset plan_cache_mode`.execute(conn);
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
  }

  /** The one statement a search page sends, run again under EXPLAIN ANALYZE. */
  async function planOf(work: () => Promise<unknown>): Promise<Ran> {
    const sent = (await sentToPostgres(work)).filter((s) => s.text.includes('part0'));
    expect(sent).toHaveLength(1);
    const { text, values } = sent[0]!;
    const nodes = await explained(text, values);
    return {
      nodes,
      cte: (name) => {
        const root = nodes.find((n) => n['Subplan Name'] === `CTE ${name}`);
        expect(root, `CTE ${name}`).toBeDefined();
        return nodesOf(root!);
      },
    };
  }

  const ran = (nodes: PlanNode[]) => nodes.some((n) => n['Actual Loops'] > 0);
  const readsIndex = (nodes: PlanNode[], index: string) =>
    nodes.some(
      (n) => n['Node Type'] === 'Bitmap Index Scan' && n['Index Name'] === index && n['Actual Loops'] > 0,
    );
  const walksIds = (nodes: PlanNode[]) =>
    nodes.some(
      (n) => n['Node Type'] === 'Index Scan' && n['Index Name'] === 'books_pkey' && n['Actual Loops'] > 0,
    );
  /** No node that ran read every book. */
  const noBookScan = (r: Ran) =>
    expect(
      r.nodes.filter(
        (n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'books' && n['Actual Loops'] > 0,
      ),
    ).toEqual([]);

  async function search(keyword: string) {
    let page: number[] = [];
    const plan = await planOf(async () => {
      page = (await searchBooks(h.db, keyword, { offset: 0, limit: 20 }, [])).map((b) => b.id);
    });
    expect(page).toEqual(expectedPage(keyword));
    noBookScan(plan);
    return plan;
  }

  it('a common substring is answered by the first walk in id order, the index never read', async () => {
    const plan = await search('common');
    expect(walksIds(plan.cte('part0_walk1'))).toBe(true);
    expect(ran(plan.cte('part0_all'))).toBe(false);
    expect(ran(plan.cte('part1'))).toBe(false);
  });

  it('a rare substring is read from the trigram indexes, title and other fields alike, never walked far', async () => {
    const plan = await search('zephyr');
    expect(readsIndex(plan.cte('part0_all'), 'books_title_key_trgm')).toBe(true);
    expect(ran(plan.cte('part0_walk2'))).toBe(false);
    const rest = plan.cte('part1_all');
    expect(readsIndex(rest, 'books_author_key_trgm')).toBe(true);
    expect(readsIndex(rest, 'books_publisher_key_trgm')).toBe(true);
    expect(ran(plan.cte('part1_walk2'))).toBe(false);
  });

  it('a substring of hundreds of books is probed in the index, then answered by the second walk', async () => {
    const plan = await search('middling');
    expect(readsIndex(plan.cte('part0_all'), 'books_title_key_trgm')).toBe(true);
    expect(walksIds(plan.cte('part0_walk2'))).toBe(true);
  });

  it('a substring the first walk finds a tenth of a page of is walked again before the index is read', async () => {
    const plan = await search('sparse');
    expect(walksIds(plan.cte('part0_walk2'))).toBe(true);
    expect(ran(plan.cte('part0_all'))).toBe(false);
  });

  it('a phrase is read from the trigram index as a phrase, not as its words apart', async () => {
    // a thousand titles hold `ember` and `glow`, one holds `ember glow`: the index read that one
    const plan = await search('ember glow');
    expect(expectedPage('ember glow', N)).toEqual([777]);
    const read = plan
      .cte('part0_all')
      .filter((n) => n['Node Type'] === 'Bitmap Index Scan' && n['Actual Loops'] > 0);
    expect(read.map((n) => [n['Index Name'], n['Actual Rows']])).toEqual([['books_title_key_trgm', 1]]);
  });

  it('a first page is a prepared statement whose plan PostgreSQL keeps after five; a later page is not', async () => {
    // PostgreSQL plans a prepared statement at its first five executions, then keeps a generic plan
    // while that costs no more than the custom ones did: the keywords out of the planner's sight make
    // it so, whatever they are (at 100k books, with the keyword in sight it planned every search)
    const one = createDb(h.config, { poolSize: 1 });
    try {
      const keywords = [
        'common',
        'zephyr',
        'middling',
        'sparse',
        'ember glow',
        'clustered',
        'nothing',
        'volume',
      ];
      for (const keyword of keywords) {
        const page = await searchBooks(one.db, keyword, { offset: 0, limit: 20 }, []);
        expect(
          page.map((b) => b.id),
          keyword,
        ).toEqual(expectedPage(keyword));
      }
      const { rows } = await sql<{ generic: string; custom: string }>`
        select generic_plans as generic, custom_plans as custom from pg_prepared_statements
        where statement like '%part0_walk1%'`.execute(one.db);
      expect(rows.map((r) => [Number(r.custom), Number(r.generic)])).toEqual([[5, 3]]);
      await searchBooks(one.db, 'common', { offset: 20, limit: 20 }, []);
      const prepared = await sql<{ n: string }>`
        select count(*) as n from pg_prepared_statements where statement like '%part0_walk1%'`.execute(
        one.db,
      );
      expect(Number(prepared.rows[0]!.n)).toBe(1);
    } finally {
      await one.destroy();
    }
  });

  it('matches clustered past the second walk are all read from the index and sorted', async () => {
    const plan = await search('clustered');
    expect(readsIndex(plan.cte('part0_all'), 'books_title_key_trgm')).toBe(true);
    expect(walksIds(plan.cte('part0_walk2'))).toBe(true);
  });

  it('keywords of one or two characters are read from the gram index', async () => {
    const rare = await search('鳳');
    expect(readsIndex(rare.cte('part0_all'), 'books_grams_gin')).toBe(true);
    expect(readsIndex(rare.cte('part1_all'), 'books_grams_gin')).toBe(true);
    expect(ran(rare.cte('part1_walk2'))).toBe(false);
    // a seventh of the authors: the first walk of the other fields fills the page
    const common = await search('龍');
    expect(readsIndex(common.cte('part0_all'), 'books_grams_gin')).toBe(true);
    expect(walksIds(common.cte('part1_walk1'))).toBe(true);
    expect(ran(common.cte('part1_all'))).toBe(false);
  });

  it('a search-list page by author is one statement through the same steps', async () => {
    let page: number[] = [];
    const plan = await planOf(async () => {
      page = (await searchList(h.db, { author: 'zephyr' }, { offset: 0, limit: 20 })).map((b) => b.id);
    });
    expect(page).toEqual([8000]);
    expect(readsIndex(plan.cte('part0_all'), 'books_author_key_trgm')).toBe(true);
    noBookScan(plan);
  });

  it('a search page and its log write are one statement each', async () => {
    const page = await sentToPostgres(() => searchBooks(h.db, 'zephyr', { offset: 0, limit: 20 }, []));
    expect(page).toHaveLength(1);
    const log = await sentToPostgres(() => logSearch(h.db, 'zephyr', null, Date.now()));
    expect(log.map((s) => s.text)).toEqual([expect.stringContaining('insert into search_stats')]);
    // searches logged together: still one statement
    const entries = ['zephyr', 'Zephyr', 'quartz'].map((keyword) => ({
      keyword,
      openId: null,
      at: Date.now(),
    }));
    const together = await sentToPostgres(() => logSearches(h.db, entries));
    expect(together.map((s) => s.text)).toEqual([expect.stringContaining('insert into search_stats')]);
  });

  it('facet values of a rare keyword are read from their trigram index, not by scanning every value', async () => {
    const sent = await sentToPostgres(() => searchFacet(h.db, 'zephyr', 'author'));
    const { text, values } = sent.find((s) => s.text.includes('book_values'))!;
    const nodes = await explained(text, values);
    expect(readsIndex(nodes, 'book_values_value_key_trgm')).toBe(true);
    expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
  });

  it("the admin list's pages, in every sort, read the page's ids from an index alone, then only the page's rows", async () => {
    // an index-only scan answers from the index where the visibility map says the rows are visible
    await sql`vacuum books`.execute(h.db);
    const sortIndex: Record<BookListSortField, string> = {
      id: 'books_pkey',
      title: 'books_title_id_idx',
      author: 'books_author_id_idx',
      publisher: 'books_publisher_id_idx',
      language: 'books_language_id_idx',
      category: 'books_category_idx',
      fileName: 'books_file_name_id_idx',
      createdAt: 'books_created_at_id_idx',
    };
    for (const field of BOOK_LIST_SORT_FIELDS)
      for (const dir of ['asc', 'desc'] as const) {
        let rows: Array<{ id: number }> = [];
        // the middle of the catalogue: the OFFSET steps over 10,000 books
        const sent = await sentToPostgres(async () => {
          ({ rows } = await listBooksAdmin(h.db, {}, { field, dir }, { offset: 10_000, limit: 20 }));
        });
        expect(rows).toHaveLength(20);
        const page = sent.find((s) => s.text.includes('order by'))!;
        for (const nodes of [
          await explained(page.text, page.values),
          await explainedGeneric(page.text, page.values),
        ]) {
          const reads = nodes.filter((n) => n['Relation Name'] === 'books' && n['Actual Loops'] > 0);
          // the ids: one walk of the sort's index, every entry from the index; the rows: 20 by id
          expect([field, dir, reads.map((n) => [n['Node Type'], n['Index Name']])]).toEqual([
            field,
            dir,
            expect.arrayContaining([
              ['Index Only Scan', sortIndex[field]],
              ['Index Scan', 'books_pkey'],
            ]),
          ]);
          expect(reads).toHaveLength(2);
          const heapFetches = nodes.find((n) => n['Node Type'] === 'Index Only Scan')!['Heap Fetches'];
          expect([field, dir, heapFetches]).toEqual([field, dir, 0]);
          // what is sorted is the page's rows, not the catalogue. In category order, the books of the
          // categories up to the page's are put in id order within their category: here every book is
          // in one category (the bench's 100k books in 22: categories_name_key walked, each category's
          // books sorted apart, an Incremental Sort)
          const sortedAtMost = field === 'category' ? 10_000 + 20 : 20;
          for (const sorted of nodes.filter((n) => /Sort$/.test(n['Node Type'])))
            expect([field, dir, sorted['Actual Rows'] <= sortedAtMost]).toEqual([field, dir, true]);
        }
      }
  });

  it('the admin list under a title filter reads its matches once, through the trigram index, for its total and its page', async () => {
    const matching = books.filter((b) => b.title.includes('middling'));
    // in id order the matches are found and counted on book_keys' narrow rows; in another order on books,
    // which hold the sort's key
    for (const [sort, table, index, order] of [
      [
        { field: 'id', dir: 'desc' },
        'book_keys',
        'book_keys_title_key_trgm',
        (a: SeededBook, b: SeededBook) => b.id - a.id,
      ],
      [
        { field: 'title', dir: 'asc' },
        'books',
        'books_title_key_trgm',
        (a: SeededBook, b: SeededBook) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id),
      ],
    ] as const) {
      let result = { rows: [] as Array<{ id: number }>, total: 0 };
      const sent = await sentToPostgres(async () => {
        result = await listBooksAdmin(h.db, { title: 'middling' }, sort, { offset: 0, limit: 20 });
      });
      expect(result.total).toBe(matching.length);
      expect(result.rows.map((r) => r.id)).toEqual(
        [...matching]
          .sort(order)
          .slice(0, 20)
          .map((b) => b.id),
      );
      // one statement: the matches counted and ordered for the page, and the page's rows by id
      expect(sent).toHaveLength(1);
      const { text, values } = sent[0]!;
      expect(text).toContain('limit');
      for (const nodes of [await explained(text, values), await explainedGeneric(text, values)]) {
        // the matches through the trigram index, each tested on its row once (a count and a page apart
        // would each read every match); the page's 20 rows by their primary key; no walk of an index in
        // the sort's order testing every book until the page is full
        expect([sort, readsIndex(nodes, index)]).toEqual([sort, true]);
        const matched = nodes.filter((n) => n['Node Type'] === 'Bitmap Heap Scan');
        expect(matched.map((n) => [n['Relation Name'], n['Actual Loops'], n['Actual Rows']])).toEqual([
          [table, 1, matching.length],
        ]);
        const pageRows = nodes.filter(
          (n) => n['Relation Name'] === 'books' && n['Node Type'] !== 'Bitmap Heap Scan',
        );
        expect(
          pageRows.map((n) => [n['Node Type'], n['Index Name'], n['Actual Loops'], n['Actual Rows']]),
        ).toEqual([['Index Scan', 'books_pkey', 1, 20]]);
      }
    }
  });
});
