import {
  type BookRow,
  catalogChangesSince,
  catalogState,
  commitStamp,
  type Database,
  findBookByFileName,
  findBooksByIds,
} from '@readlib/data';
import type { Kysely } from 'kysely';
import { BoundedMap } from '../bounded-map.js';
import type { Cache } from '../cache/cache.js';
import { BookCategories } from './book-categories.js';
import { NewestLists } from './newest-lists.js';
import { PopularValuesMemo } from './popular-values.js';
import { CATALOG_CACHE_PREFIX } from './reader-context.js';

/**
 * Catalogue rows one reader process keeps in memory: books by id and the newest books per category,
 * which only book writes change, while home pages and batches read the same few hundred of them over
 * and over (at 100k books, 0.9 ms of the 1.7 ms a home page spent in SQL went to 14 book rows and three
 * category pools). Everything here, and the shared cache's `catalog:` keys, belongs to one
 * `counters.catalog_version`: `sync` reads it (one indexed row) and, when it moved, forgets the books
 * the change log names for the versions in between (everything when the log no longer covers them),
 * carries the newest-per-category lists across it and drops the cached category lists, so a change committed by any process (admin API, CLI import, another
 * replica) is seen by the next request that syncs, with no time-based staleness.
 */
export class CatalogMemo {
  private version = -1;
  private facetVersion = -1;
  private generation = 0;
  private profiles = -1;
  private count = 0;
  private syncing: Promise<void> | undefined;
  /** commitStamp taken before the last complete sync: while it holds, nothing can have moved */
  private syncedAt: number | undefined;
  private readonly books: BoundedMap<number, BookRow>;
  private readonly idsByFileName = new Map<string, number>();
  private readonly newest = new NewestLists();
  /** every book's category, for a reader's liked categories (loaded on first use) */
  readonly categories = new BookCategories();
  /**
   * answers computed from the catalogue alone (search answers, search-list pages), dropped whole when
   * the version moves
   */
  private readonly answers = new BoundedMap<string, unknown>(2_000);

  /**
   * @param maxBooks book rows kept at most
   * @param popular the most frequent author and publisher values (search facets), reset when the facet
   *   counts change
   */
  constructor(
    maxBooks = 20_000,
    readonly popular = new PopularValuesMemo(),
    /** versions behind after which everything is forgotten rather than the change log read */
    private readonly maxLogRead = 1_000,
  ) {
    // oldest rows go first: a bound on memory, not a recency policy (hot books come back at once)
    this.books = new BoundedMap(maxBooks, (_id, row) => this.idsByFileName.delete(row.file_name));
  }

  /**
   * counters.profile_version at the last sync: moved by every change of a registered user's nickname
   * or avatar, which book details show among their readers.
   */
  get profileVersion(): number {
    return this.profiles;
  }

  /**
   * The catalogue version the memo is synced to, -1 while a change is being applied. Book rows it hands
   * out after this is read are of this version or a later one: an answer built from them and labelled
   * with it holds for as long as the version stays.
   */
  get syncedVersion(): number {
    return this.version;
  }

  /**
   * Once per request, before reading anything catalogue-derived; concurrent callers share one read.
   * Nothing is read while no commit at all has happened since the last sync. Resolves with the
   * `commitStamp` taken on the call, before anything was read: the caller's other reads may be kept
   * and checked against it (CommitMemo) as long as the request writes nothing in between.
   */
  sync(db: Kysely<Database>, cache?: Cache): Promise<number | undefined> {
    const stamp = commitStamp(db);
    if (!this.syncing && stamp !== undefined && stamp === this.syncedAt && this.version >= 0)
      return Promise.resolve(stamp);
    this.syncing ??= this.check(db, cache, stamp).finally(() => {
      this.syncing = undefined;
    });
    return this.syncing.then(() => stamp);
  }

  private async check(db: Kysely<Database>, cache: Cache | undefined, stamp: number | undefined) {
    this.syncedAt = undefined;
    const { version, books, facetVersion, profileVersion } = await catalogState(db);
    this.profiles = profileVersion;
    if (version === this.version) {
      this.syncedAt = stamp;
      return;
    }
    const from = this.version;
    // unsynced until the change is applied in full: should a step below fail, the next sync starts over
    this.version = -1;
    // reads begun before this point may hold rows of the old version: they are not kept (generation)
    this.generation++;
    const changed =
      from >= 0 && version - from <= this.maxLogRead
        ? await catalogChangesSince(db, from, version)
        : undefined;
    if (changed) await this.forgetChanged(db, changed);
    else {
      this.books.clear();
      this.idsByFileName.clear();
      this.newest.clear();
      this.categories.clear();
    }
    this.answers.clear();
    // the most frequent authors and publishers change only with the facet counts, not with every edit
    if (facetVersion !== this.facetVersion || from < 0) this.popular.reset();
    this.facetVersion = facetVersion;
    await cache?.invalidate(CATALOG_CACHE_PREFIX);
    this.count = books;
    this.version = version;
    this.syncedAt = stamp;
  }

  /**
   * A value that depends on the catalogue alone, computed once per catalogue version and key. At most
   * 2,000 are kept (the oldest go first), apart from the shared cache, so a flood of distinct keywords
   * pushes out only other answers, within a bound of tens of MB (callers keep pages of 20 books, ~8 KB
   * as JSON).
   */
  async answer<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.answers.get(key);
    if (hit !== undefined) return hit as T;
    const generation = this.generation;
    const value = await compute();
    // computed across a version change: answer the caller, keep nothing
    if (generation === this.generation) this.answers.set(key, value);
    return value;
  }

  /** Books in the catalogue at the synced version (read with it, so random draws need not count). */
  get bookCount(): number {
    return this.count;
  }

  /** Books of the given ids in that order (missing ids skipped): misses are read in one query. */
  async booksByIds(db: Kysely<Database>, ids: readonly number[]): Promise<BookRow[]> {
    // one lookup per id when all are kept (every home page comes here with 10-14 ids)
    const kept: BookRow[] = [];
    let missing: number[] | undefined;
    for (const id of ids) {
      const row = this.books.get(id);
      if (row) kept.push(row);
      else {
        missing ??= [];
        missing.push(id);
      }
    }
    if (missing) {
      const generation = this.generation;
      const rows = await findBooksByIds(db, missing);
      // rows read before a version change must not be kept after it
      if (generation === this.generation) for (const r of rows) this.remember(r);
      const fetched = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => this.books.get(id) ?? fetched.get(id) ?? []);
    }
    return kept;
  }

  /** The book with this file name (unknown names are read every time: they are not kept). */
  async bookByFileName(db: Kysely<Database>, fileName: string): Promise<BookRow | undefined> {
    const id = this.idsByFileName.get(fileName);
    const hit = id === undefined ? undefined : this.books.get(id);
    if (hit) return hit;
    const generation = this.generation;
    const row = await findBookByFileName(db, fileName);
    if (row && generation === this.generation) this.remember(row);
    return row;
  }

  /**
   * The newest `perCategory` book ids of each given category, one list per category, not copied: valid
   * until the caller's next await (a catalogue change updates the lists in place), so it suits a draw
   * made at once (a home page's).
   */
  newestListsOf(
    db: Kysely<Database>,
    categoryIds: readonly number[],
    perCategory: number,
  ): Promise<ReadonlyArray<readonly number[]>> {
    return Promise.all(categoryIds.map((id) => this.newest.ids(db, id, perCategory)));
  }

  /**
   * Forgets the changed books and brings the newest lists along from their current rows. The rows are
   * not kept: during an import they are new books nobody has asked for yet, and keeping them would push
   * the books readers do ask for out of the memo.
   */
  private async forgetChanged(db: Kysely<Database>, changed: readonly number[]): Promise<void> {
    for (const id of changed) this.forget(id);
    if (changed.length === 0) return;
    const rows = await findBooksByIds(db, changed);
    this.newest.apply(changed, rows);
    this.categories.apply(changed, rows);
  }

  private forget(id: number): void {
    const row = this.books.get(id);
    if (!row) return;
    this.books.delete(id);
    this.idsByFileName.delete(row.file_name);
  }

  private remember(row: BookRow): void {
    this.books.set(row.id, row);
    this.idsByFileName.set(row.file_name, row.id);
  }
}
