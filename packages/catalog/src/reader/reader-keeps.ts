import {
  BoundedMap,
  Derived,
  Keep,
  type KeepSpec,
  SharedKeep,
  type SharedStore,
  Versions,
} from '@readlib/cache';
import {
  type BookRow,
  catalogChangesSince,
  catalogState,
  commitStamp,
  type Database,
  findBooksByIds,
} from '@readlib/data';
import type { Kysely } from 'kysely';
import { BookCategories } from './book-categories.js';
import { CatalogView, type Kept } from './catalog-view.js';
import { NewestLists } from './newest-lists.js';
import { PopularValuesMemo, type PopularValuesOptions } from './popular-values.js';
import {
  ACTIVITY_PERIOD_MS,
  AFFINITY_PERIOD_MS,
  READER_VERSIONS,
  type ReaderVersion,
} from './reader-versions.js';

/** Bounds of the keeps (entries), chosen for memory: tens of MB at most each. */
export const KEEP_BOUNDS = {
  books: 20_000,
  answers: 2_000,
  shelves: 10_000,
  shelfEntries: 500,
  stats: 20_000,
  profiles: 50_000,
  userIds: 100_000,
} as const;

/** Versions behind after which a reader forgets every book rather than reading the change log. */
const MAX_LOG_READ = 1_000;

export interface ReaderKeepsOptions {
  /** where replicas share kept lists (Redis); none: each process keeps its own */
  store?: SharedStore;
  /** told when the shared store fails (the value is computed instead) */
  onStoreError?: (err: Error) => void;
  /** false: keep nothing, read everything on every request (tests comparing kept answers with fresh ones) */
  keep?: boolean;
  /** the authors and publishers kept per field for the search facets, and how often a read of them may start */
  popular?: PopularValuesOptions;
}

/**
 * Everything a reader process keeps, each keep naming the versions it depends on, and the sync that
 * observes those versions once per request. Reads of kept values go through the `CatalogView` the sync
 * returns, so none can skip it.
 */
export class ReaderKeeps {
  readonly versions = new Versions<ReaderVersion>(READER_VERSIONS);
  private readonly kept: Kept;
  private readonly keeping: boolean;
  private catalogVersion = -1;
  private count = 0;
  private profileVersion = 0;
  private syncing: Promise<void> | undefined;
  /** the commit stamp taken before the last complete sync: while it holds, no counter can have moved */
  private syncedAt: number | undefined;

  constructor(options: ReaderKeepsOptions = {}) {
    this.keeping = options.keep !== false;
    const bound = (n: number) => (this.keeping ? n : 0);
    const v = this.versions;
    const store = this.keeping ? options.store : undefined;
    const onError = options.onStoreError;
    const books = new Keep<ReaderVersion, number, BookRow>(v, {
      name: 'book rows',
      key: 'book id (and file name)',
      dependsOn: ['catalog'],
      keyedBy: 'catalog',
      max: bound(KEEP_BOUNDS.books),
    });
    this.kept = {
      versions: v,
      books,
      bookIds: new BoundedMap(bound(KEEP_BOUNDS.books)),
      answers: new Keep(v, {
        name: 'catalogue answers',
        key: 'search or search-list page (default size or less), OPDS feed page, category names, home freeRead pool of the minute',
        dependsOn: ['catalog'],
        max: bound(KEEP_BOUNDS.answers),
      }),
      newest: new NewestLists(this.keeping),
      categories: new BookCategories(this.keeping),
      popular: new PopularValuesMemo(this.keeping, options.popular),
      categoryList: new SharedKeep(
        v,
        { name: 'category list', key: '-', dependsOn: ['catalog'], max: bound(1), ttlMs: 60_000 },
        store,
        onError,
      ),
      categoryCounts: new SharedKeep(
        v,
        { name: 'category counts', key: '-', dependsOn: ['catalog'], max: bound(1), ttlMs: 60_000 },
        store,
        onError,
      ),
      activity: new SharedKeep(
        v,
        {
          name: 'activity rankings',
          key: 'ranking (most viewed, well rated, top keyword) and its size',
          dependsOn: ['activity'],
          max: bound(16),
          ttlMs: ACTIVITY_PERIOD_MS,
        },
        store,
        onError,
      ),
      liked: new SharedKeep(
        v,
        {
          name: 'liked categories',
          key: 'user id',
          dependsOn: ['affinity'],
          max: bound(10_000),
          ttlMs: AFFINITY_PERIOD_MS,
        },
        store,
        onError,
      ),
      shelves: new Keep(v, {
        name: 'shelf entries',
        key: 'user id',
        dependsOn: ['commit'],
        max: bound(KEEP_BOUNDS.shelves),
        keeps: (shelf) => shelf.entries.length <= KEEP_BOUNDS.shelfEntries,
      }),
      stats: new Keep(v, {
        name: 'book counts (views, readers, ratings)',
        key: 'book id',
        dependsOn: ['commit'],
        max: bound(KEEP_BOUNDS.stats),
      }),
      profiles: new Keep(v, {
        name: "readers' nicknames and avatars",
        key: 'user id',
        dependsOn: ['profiles'],
        max: bound(KEEP_BOUNDS.profiles),
      }),
      userIds: new Keep(v, {
        name: 'registered user ids',
        key: 'openId',
        // a registered openId's id never changes and users are never deleted
        dependsOn: [],
        max: bound(KEEP_BOUNDS.userIds),
      }),
    };
    const { newest, categories, popular } = this.kept;
    v.subscribe(
      ['catalog'],
      {
        // a move that names its books is applied to the lists in place by the sync; any other drops them
        moved: (_name, _moves, keys) => {
          if (keys === undefined) {
            newest.clear();
            categories.clear();
          }
        },
      },
      {
        name: 'newest books per category; every book’s category',
        key: 'category id; book id',
        dependsOn: ['catalog'],
        max: 0,
        unit: 'every category and book (kept in step from the changed books’ rows)',
      },
    );
    v.subscribe(
      ['facets'],
      { moved: () => popular.reset() },
      {
        name: 'most frequent authors and publishers',
        key: 'field',
        dependsOn: ['facets'],
        max: 5_000,
        unit: 'values per field',
      },
    );
  }

  /**
   * Once per request, before reading anything kept: observes the versions (one indexed row, or nothing
   * while no commit at all happened since the last sync) and brings the keeps to them. Concurrent
   * callers share one read.
   */
  async sync(db: Kysely<Database>, now: number): Promise<CatalogView> {
    const stamp = commitStamp(db);
    this.observeClock(now);
    const current =
      this.keeping && stamp !== undefined && stamp === this.syncedAt && this.catalogVersion >= 0;
    if (!current) {
      this.syncing ??= this.check(db, stamp).finally(() => {
        this.syncing = undefined;
      });
      await this.syncing;
    }
    this.versions.observe('commit', stamp);
    return new CatalogView(db, this.kept, this.versions.seen, this.count, this.profileVersion);
  }

  /**
   * A keep of this process over the reader's versions, for what the services do not keep themselves
   * (a route's serialised answers); it keeps nothing when the process keeps nothing.
   */
  keep<K, V>(spec: KeepSpec<ReaderVersion, V>): Keep<ReaderVersion, K, V> {
    return new Keep<ReaderVersion, K, V>(this.versions, this.keeping ? spec : { ...spec, max: 0 });
  }

  /** Values derived from the objects of the keep named `from` (serialised forms), kept as long as they are. */
  derived<S extends object, V>(name: string, from: string): Derived<ReaderVersion, S, V> {
    return new Derived<ReaderVersion, S, V>(this.versions, name, from, this.keeping);
  }

  /**
   * The id of a registered openId, kept once read (it never changes, and users are never deleted);
   * an unknown openId is read every time: it may register at any moment.
   */
  async userId(openId: string, read: () => Promise<number | undefined>): Promise<number | undefined> {
    const kept = this.kept.userIds.get(openId);
    if (kept !== undefined) return kept;
    const id = await read();
    if (id !== undefined) this.kept.userIds.set(openId, id, this.versions.seen);
    return id;
  }

  private observeClock(now: number): void {
    this.versions.observe('activity', Math.floor(now / ACTIVITY_PERIOD_MS));
    this.versions.observe('affinity', Math.floor(now / AFFINITY_PERIOD_MS));
  }

  private async check(db: Kysely<Database>, stamp: number | undefined): Promise<void> {
    this.syncedAt = undefined;
    const { version, books, facetVersion, profileVersion } = await catalogState(db);
    this.profileVersion = profileVersion;
    this.versions.observe('profiles', profileVersion);
    this.versions.observe('facets', facetVersion);
    if (version !== this.catalogVersion) {
      const from = this.catalogVersion;
      // unsynced until the change is applied in full: should a step below fail, the next sync starts over
      this.catalogVersion = -1;
      const changed =
        from >= 0 && version - from <= MAX_LOG_READ
          ? await catalogChangesSince(db, from, version)
          : undefined;
      const rows = changed && changed.length > 0 ? await findBooksByIds(db, changed) : [];
      this.versions.observe('catalog', version, changed);
      if (changed) {
        this.kept.newest.apply(changed, rows);
        this.kept.categories.apply(changed, rows);
      }
      this.count = books;
      this.catalogVersion = version;
    }
    this.syncedAt = stamp;
  }
}
