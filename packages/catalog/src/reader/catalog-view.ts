import type { BoundedMap, Keep, SharedKeep, Versions } from '@readlib/cache';
import type { CategoryItem } from '@readlib/contracts';
import {
  type BookRow,
  type BookStats,
  type CategoryCount,
  commitStamp,
  type Database,
  findBookByFileName,
  findBooksByIds,
  type UserProfileRow,
} from '@readlib/data';
import type { Kysely } from 'kysely';
import type { BookCategories } from './book-categories.js';
import type { NewestLists } from './newest-lists.js';
import type { PopularValuesMemo } from './popular-values.js';
import type { ReaderVersion } from './reader-versions.js';

/** A shelf entry as kept: the book and when it was shelved. */
export type ShelfEntryKey = Readonly<{ book_id: number; created_at: number }>;

/** A user's whole shelf as kept: its entries, newest first, and the same as text (a kept answer's tag). */
export interface KeptShelf {
  entries: readonly ShelfEntryKey[];
  tag: string;
}

/** What the keeps of a reader process hold, for the views that read through them. */
export interface Kept {
  versions: Versions<ReaderVersion>;
  books: Keep<ReaderVersion, number, BookRow>;
  bookIds: BoundedMap<string, number>;
  answers: Keep<ReaderVersion, string, unknown>;
  newest: NewestLists;
  categories: BookCategories;
  popular: PopularValuesMemo;
  categoryList: SharedKeep<ReaderVersion, CategoryItem[]>;
  categoryCounts: SharedKeep<ReaderVersion, CategoryCount[]>;
  activity: SharedKeep<ReaderVersion, unknown>;
  liked: SharedKeep<ReaderVersion, number[]>;
  shelves: Keep<ReaderVersion, number, KeptShelf>;
  stats: Keep<ReaderVersion, number, BookStats>;
  profiles: Keep<ReaderVersion, number, UserProfileRow>;
  userIds: Keep<ReaderVersion, string, number>;
}

/**
 * The catalogue as one request sees it after its sync: every read of a kept value goes through it.
 * `seen` is the count of version moves at the sync; values read through the view are kept only while
 * no version they depend on has moved since.
 */
export class CatalogView {
  constructor(
    readonly db: Kysely<Database>,
    private readonly kept: Kept,
    private seenAt: number,
    /** books in the catalogue at the synced version (read with it, so random draws need not count) */
    readonly bookCount: number,
    /** counters.profile_version at the sync */
    readonly profileVersion: number,
  ) {}

  get seen(): number {
    return this.seenAt;
  }

  /**
   * After a write of this request (a view recorded): the commit it made moved the commit version, so
   * what is read next is checked against a new stamp.
   */
  afterWrite(): void {
    this.kept.versions.observe('commit', commitStamp(this.db));
    this.seenAt = this.kept.versions.seen;
  }

  /** Books of the given ids in that order (missing ids skipped): misses are read in one query. */
  async booksByIds(ids: readonly number[]): Promise<BookRow[]> {
    const { books } = this.kept;
    const found: BookRow[] = [];
    let missing: number[] | undefined;
    for (const id of ids) {
      const row = books.get(id);
      if (row) found.push(row);
      else {
        missing ??= [];
        missing.push(id);
      }
    }
    if (!missing) return found;
    const rows = await findBooksByIds(this.db, missing);
    for (const r of rows) this.remember(r);
    const fetched = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => books.get(id) ?? fetched.get(id) ?? []);
  }

  /** The book with this file name (unknown names are read every time: they are not kept). */
  async bookByFileName(fileName: string): Promise<BookRow | undefined> {
    const id = this.kept.bookIds.get(fileName);
    const hit = id === undefined ? undefined : this.kept.books.get(id);
    if (hit && hit.file_name === fileName) return hit;
    const row = await findBookByFileName(this.db, fileName);
    if (row) this.remember(row);
    return row;
  }

  /** A value that depends on the catalogue alone, computed once per catalogue version and key. */
  answer<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.kept.answers.read(key, this.seenAt, compute) as Promise<T>;
  }

  /**
   * The newest `perCategory` book ids of each category, one list per category, not copied: valid until
   * the caller's next await (a catalogue change updates the lists in place).
   */
  newestListsOf(
    categoryIds: readonly number[],
    perCategory: number,
  ): Promise<ReadonlyArray<readonly number[]>> {
    return Promise.all(categoryIds.map((id) => this.kept.newest.ids(this.db, id, perCategory)));
  }

  /** Every book's category, once loaded (false until then: callers read from the database). */
  get bookCategories(): BookCategories {
    return this.kept.categories;
  }

  get popular(): PopularValuesMemo {
    return this.kept.popular;
  }

  categoryList(compute: () => Promise<CategoryItem[]>): Promise<CategoryItem[]> {
    return this.kept.categoryList.read('', this.seenAt, compute);
  }

  categoryCounts(compute: () => Promise<CategoryCount[]>): Promise<CategoryCount[]> {
    return this.kept.categoryCounts.read('', this.seenAt, compute);
  }

  activity<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.kept.activity.read(key, this.seenAt, compute) as Promise<T>;
  }

  likedCategories(userId: number, compute: () => Promise<number[]>): Promise<number[]> {
    return this.kept.liked.read(String(userId), this.seenAt, compute);
  }

  shelf(userId: number, read: () => Promise<KeptShelf>): Promise<KeptShelf> {
    return this.kept.shelves.read(userId, this.seenAt, read);
  }

  stats(bookId: number, read: () => Promise<BookStats>): Promise<BookStats> {
    return this.kept.stats.read(bookId, this.seenAt, read);
  }

  /** Readers' profiles of these ids: kept ones, and the missing ones read with `read`. */
  async profiles(
    ids: readonly number[],
    read: (missing: number[]) => Promise<UserProfileRow[]>,
  ): Promise<Map<number, UserProfileRow>> {
    const { profiles } = this.kept;
    const found = new Map<number, UserProfileRow>();
    const missing: number[] = [];
    for (const id of ids) {
      const p = profiles.get(id);
      if (p) found.set(id, p);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    for (const p of await read(missing)) {
      found.set(p.id, p);
      profiles.set(p.id, p, this.seenAt);
    }
    return found;
  }

  private remember(row: BookRow): void {
    this.kept.books.set(row.id, row, this.seenAt);
    this.kept.bookIds.set(row.file_name, row.id);
  }
}
