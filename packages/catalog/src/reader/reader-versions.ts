/**
 * The versions a reader process keeps values by. Every kept value names the ones it depends on
 * (reader-keeps.ts); every write moves the ones standing for what it changes. docs/architecture/caches.md
 * shows this table beside the table of keeps.
 */
export const READER_VERSIONS = ['catalog', 'facets', 'profiles', 'commit', 'activity', 'affinity'] as const;
export type ReaderVersion = (typeof READER_VERSIONS)[number];

/** What moves each version, and where it is read. */
export const readerVersionSources: Readonly<Record<ReaderVersion, string>> = {
  catalog:
    'counters.catalog_version, moved in the transaction of every book insert, update and delete (admin API, CLI import, any process), which logs the books it touched (catalog_changes); read at every sync',
  facets:
    'counters.facet_version, moved in the transaction of a book write that changes the author or publisher counts (book_values); read at every sync',
  profiles:
    "counters.profile_version, moved in the transaction of a registration that changes a registered reader's nickname or avatar; read at every sync",
  commit:
    "SQLite's commit stamp (the wal-index header): moved by any commit of any process; read at every sync. PostgreSQL: moved by the notifications of commits to the tables readers keep and by the process's own writes but those of logs alone (LISTEN/NOTIFY); while not listening it moves at every sync, so nothing depending on it is reused",
  activity:
    'the clock: moves every ACTIVITY_PERIOD_MS. Views, ratings and searches are not counted per write: rankings over 30 days lag them by at most this',
  affinity:
    "the clock: moves every AFFINITY_PERIOD_MS (a reader's liked categories lag their views by at most this)",
};

/** Periods of the clock versions. */
export const ACTIVITY_PERIOD_MS = 5_000;
export const AFFINITY_PERIOD_MS = 30_000;
