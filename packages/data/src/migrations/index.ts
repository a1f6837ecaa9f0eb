import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './2026-11-22T1000-initial.js';
import * as activityStats from './2026-11-22T1200-activity-stats.js';
import * as readPaths from './2026-11-22T1400-read-paths.js';
import * as bookValues from './2026-11-22T1600-book-values.js';
import * as leanViewWrites from './2026-11-22T1800-lean-view-writes.js';
import * as titleIndex from './2026-11-22T2000-title-index.js';
import * as readerCounts from './2026-11-22T2200-reader-counts.js';
import * as readerBooksIndex from './2026-11-22T2300-reader-books-index.js';
import * as popularValues from './2026-11-22T2330-popular-values.js';
import * as shelfCoveringIndex from './2026-11-22T2340-shelf-covering-index.js';
import * as categoryBookCounts from './2026-11-22T2350-category-book-counts.js';
import * as catalogChanges from './2026-11-22T2355-catalog-changes.js';
import * as operatorTokenVersion from './2026-11-22T2358-operator-token-version.js';
import * as viewDays from './2026-11-23T1000-view-days.js';
import * as nfkcSearch from './2026-11-23T1200-nfkc-search.js';
import * as viewDaysOffset from './2026-11-23T1400-view-days-offset.js';
import * as profileVersion from './2026-11-23T1600-profile-version.js';
import * as bookReadersByUser from './2026-11-24T1000-book-readers-by-user.js';
import * as searchPlannerStatistics from './2026-11-26T1000-search-planner-statistics.js';
import * as commitNotifications from './2026-11-26T1200-commit-notifications.js';
import * as phraseTrigrams from './2026-11-26T1400-phrase-trigrams.js';
import * as searchKeys from './2026-11-26T1600-search-keys.js';
import * as languageSortIndex from './2026-11-26T2200-language-sort-index.js';
import * as searchKeywordIndex from './2026-11-26T2300-search-keyword-index.js';
import * as listPageIndexes from './2026-11-27T1000-list-page-indexes.js';
import * as operatorNotifications from './2026-11-27T1200-operator-notifications.js';
import * as bookKeys from './2026-11-27T1800-book-keys.js';

/** Migrations in code (not read from disk) so they run the same from sources, tests and bundles. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T1000-initial': initial,
  '2026-11-22T1200-activity-stats': activityStats,
  '2026-11-22T1400-read-paths': readPaths,
  '2026-11-22T1600-book-values': bookValues,
  '2026-11-22T1800-lean-view-writes': leanViewWrites,
  '2026-11-22T2000-title-index': titleIndex,
  '2026-11-22T2200-reader-counts': readerCounts,
  '2026-11-22T2300-reader-books-index': readerBooksIndex,
  '2026-11-22T2330-popular-values': popularValues,
  '2026-11-22T2340-shelf-covering-index': shelfCoveringIndex,
  '2026-11-22T2350-category-book-counts': categoryBookCounts,
  '2026-11-22T2355-catalog-changes': catalogChanges,
  '2026-11-22T2358-operator-token-version': operatorTokenVersion,
  '2026-11-23T1000-view-days': viewDays,
  '2026-11-23T1200-nfkc-search': nfkcSearch,
  '2026-11-23T1400-view-days-offset': viewDaysOffset,
  '2026-11-23T1600-profile-version': profileVersion,
  '2026-11-24T1000-book-readers-by-user': bookReadersByUser,
  '2026-11-26T1000-search-planner-statistics': searchPlannerStatistics,
  '2026-11-26T1200-commit-notifications': commitNotifications,
  '2026-11-26T1400-phrase-trigrams': phraseTrigrams,
  '2026-11-26T1600-search-keys': searchKeys,
  '2026-11-26T2200-language-sort-index': languageSortIndex,
  '2026-11-26T2300-search-keyword-index': searchKeywordIndex,
  '2026-11-27T1000-list-page-indexes': listPageIndexes,
  '2026-11-27T1200-operator-notifications': operatorNotifications,
  '2026-11-27T1800-book-keys': bookKeys,
};

export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };
