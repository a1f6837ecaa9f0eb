import { type BookCategoryRow, bookCategoryPage, type Database } from '@readlib/data';
import type { Kysely } from 'kysely';

const NONE = -1;

/**
 * Every book's category, in memory (4 bytes per book id: 4 MB at a million books), so a reader's liked
 * categories are counted from the ids of the books they engaged with instead of joining those with
 * `books` on every call. Loaded in pages of the (category_id, id) index, yielding between them, on
 * first use (far less resident memory than reading the wide book rows); until
 * loaded, `ready` is false and callers use the SQL join. Kept in step by the catalogue memo from the
 * change log's rows; changes arriving while a load runs are applied after its last page. `clear()`
 * (the memo forgot everything) discards it all, a running load included.
 */
export class BookCategories {
  private table = { categories: new Int32Array(0) };
  private state: 'empty' | 'loading' | 'ready' = 'empty';
  private loading: Promise<void> | undefined;
  private generation = 0;
  /** changes that arrived while loading: applied over the loaded pages, in order, when they are in */
  private pending: Array<{
    changed: readonly number[];
    rows: ReadonlyArray<{ id: number; category_id: number }>;
  }> = [];

  /**
   * Each page holds the event loop while its rows are read and decoded, so a page is kept small; the
   * whole load takes about as long whatever the page size (`bench:categories` measures both).
   */
  constructor(
    /** false: never loads, so callers always read the database */
    private readonly keep = true,
    private readonly pageSize = 10_000,
  ) {}

  /** Whether every book's category is known; the first call starts the load and answers false. */
  ready(db: Kysely<Database>): boolean {
    if (this.state === 'empty' && this.keep) {
      this.state = 'loading';
      // a failed load leaves the index empty: the next use tries again, callers keep using SQL meanwhile
      this.loading = this.load(db).catch(() => this.clear());
    }
    return this.state === 'ready';
  }

  /** `ready`, awaited: true once every book's category is known, false if the load failed or was dropped. */
  async whenReady(db: Kysely<Database>): Promise<boolean> {
    if (!this.ready(db)) await this.loading;
    return this.state === 'ready';
  }

  /** The category of a book, or undefined for an id that names no book. */
  of(bookId: number): number | undefined {
    const { categories } = this.table;
    const c = bookId < categories.length ? categories[bookId]! : NONE;
    return c === NONE ? undefined : c;
  }

  /** The changed books' current rows (a deleted book has none), as CatalogMemo reads them. */
  apply(changed: readonly number[], rows: ReadonlyArray<{ id: number; category_id: number }>): void {
    if (this.state === 'loading') this.pending.push({ changed, rows });
    if (this.state !== 'ready') return;
    for (const id of changed) setIn(this.table, id, NONE);
    for (const r of rows) setIn(this.table, r.id, r.category_id);
  }

  clear(): void {
    this.generation++;
    this.state = 'empty';
    this.table = { categories: new Int32Array(0) };
    this.pending = [];
  }

  private async load(db: Kysely<Database>): Promise<void> {
    const generation = this.generation;
    const loaded = { categories: new Int32Array(0) };
    let after: BookCategoryRow | undefined;
    for (;;) {
      const page = await bookCategoryPage(db, after, this.pageSize);
      if (generation !== this.generation) return;
      for (const r of page) setIn(loaded, r.id, r.category_id);
      if (page.length < this.pageSize) break;
      after = page[page.length - 1]!;
      // let requests run between pages: a million books is a hundred pages
      await new Promise((resolve) => setImmediate(resolve));
      if (generation !== this.generation) return;
    }
    this.table = loaded;
    this.state = 'ready';
    // a page read before a change holds the old category; the change's rows are the current ones
    for (const { changed, rows } of this.pending) this.apply(changed, rows);
    this.pending = [];
  }
}

function setIn(table: { categories: Int32Array }, id: number, category: number): void {
  if (id >= table.categories.length) {
    const grown = new Int32Array(Math.max(id + 1, table.categories.length * 2, 1024)).fill(NONE);
    grown.set(table.categories);
    table.categories = grown;
  }
  table.categories[id] = category;
}
