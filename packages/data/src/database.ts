import type { Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

/** Times are epoch milliseconds everywhere (spec §2.3, §2.4 use ms), stored as bigint on PostgreSQL. */
type Millis = number;
/** Flags are 0/1 integers on both dialects so that rows compare equal across them. */
type Flag = number;

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  created_at: Millis;
  /** books of the category, kept by every book write (countCategoryBooks) */
  book_count: Generated<number>;
}

export interface BooksTable {
  id: Generated<number>;
  file_name: string;
  title: string;
  author: string;
  publisher: string;
  language: string;
  category_id: number;
  root_file: string;
  /** paths relative to STORAGE_DIR ('' when absent); URLs are built from PUBLIC_BASE_URL at the edge */
  cover_path: string;
  file_path: string;
  unzip_path: string;
  original_name: string;
  url: string;
  description: string;
  selected: Flag;
  private: Flag;
  cache: Flag;
  have_read: number;
  /** dense position 1..N among all books: lets a uniform random draw fetch k books by index */
  pos: number;
  /** hex-encoded unigrams and bigrams of title, author and publisher: the index for 1-2 character keywords */
  grams: string;
  /** NFKC of title, author and publisher where it differs (else null): what the trigram indexes hold */
  title_nfkc: string | null;
  author_nfkc: string | null;
  publisher_nfkc: string | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface TocEntriesTable {
  id: Generated<number>;
  book_id: number;
  ord: number;
  entry_id: string;
  nav_id: string;
  pid: string;
  href: string;
  label: string;
  level: number;
  text: string;
}

export interface UsersTable {
  id: Generated<number>;
  open_id: string;
  platform: string;
  avatar_url: string;
  nick_name: string;
  gender: number;
  country: string;
  province: string;
  city: string;
  language: string;
  created_at: Millis;
  updated_at: Millis;
}

export interface ShelfEntriesTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  created_at: Millis;
}

export interface RatingsTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  rank: number;
  created_at: Millis;
  updated_at: Millis;
}

/** One row per detail view: feeds hot lists and screens. */
export interface ViewsTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  created_at: Millis;
}

/** One row per (book, viewer) with the latest view: readers and readerNum without scanning the view log. */
export interface BookReadersTable {
  book_id: number;
  user_id: number;
  last_viewed_at: Millis;
}

export interface SearchLogTable {
  id: Generated<number>;
  keyword: string;
  open_id: string | null;
  created_at: Millis;
}

export interface OperatorsTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  nickname: string;
  avatar: string;
  /** JSON array of role names */
  roles: string;
  created_at: Millis;
  /** moved by a password reset: tokens issued under an older version are refused */
  token_version: Generated<number>;
}

/** An uploaded and parsed EPUB waiting for POST /book/create; expired ones are removed with their files. */
export interface UploadsTable {
  id: Generated<number>;
  file_name: string;
  original_name: string;
  /** JSON of the parsed book (metadata, root file, cover path, contents) */
  parsed: string;
  created_at: Millis;
  expires_at: Millis;
}

/** Named counters; the 'books' row is locked while a book is inserted or deleted, to keep `pos` dense. */
export interface CountersTable {
  name: string;
  value: number;
}

/** The books each catalogue version changed (bumpCatalogVersion); the newest versions only. */
export interface CatalogChangesTable {
  version: number;
  book_id: number;
}

/** Activity per book, kept in step by recordView / saveRating (migration 2026-11-22T1200). */
export interface BookStatsTable {
  book_id: number;
  views_total: Generated<number>;
  /** views at or after stat_cuts['views'] */
  views_recent: Generated<number>;
  rating_num: Generated<number>;
  rating_sum: Generated<number>;
  rating_avg: Generated<number>;
  /** distinct viewers (book_readers rows of the book), kept in step by recordView */
  readers: Generated<number>;
}

/** Searches per keyword at or after stat_cuts['searches'], kept in step by logSearch. */
export interface SearchStatsTable {
  keyword: string;
  recent: Generated<number>;
}

/**
 * Views per report day and category, for days before stat_cuts['view_days']: `day` is the day number
 * ((epoch ms + offset) / 86,400,000) at the marker's utc_offset_ms (REPORT_UTC_OFFSET).
 */
export interface ViewDaysTable {
  day: number;
  category_id: number;
  views: number;
}

/**
 * How far a maintained count has got through a log: where the `*_recent` counts start (events before
 * `upto` subtracted) and where the view_days roll-up stands (views before `upto` counted).
 */
export interface StatCutsTable {
  name: string;
  upto: Millis;
  /** ms east of UTC of the days the counts are keyed by (view_days); 0 for the other cuts */
  utc_offset_ms: Generated<number>;
}

/** Distinct author / publisher values with their book counts: the index of the search facets. */
export interface BookValuesTable {
  id: Generated<number>;
  field: 'author' | 'publisher';
  value: string;
  books: number;
  /** grams of the value (valueGrams), for 1-2 character keywords */
  grams: string;
  /** NFKC of the value where it differs (else null): what the trigram index holds */
  value_nfkc: string | null;
}

/**
 * PostgreSQL only: each book's title and author search keys (lower case, NFKC, spaces swapped; see
 * search/match.ts) on narrow rows, kept by triggers on books (migration 2026-11-27T1800-book-keys).
 */
export interface BookKeysTable {
  id: number;
  title_key: string;
  author_key: string;
}

export interface Database {
  categories: CategoriesTable;
  counters: CountersTable;
  catalog_changes: CatalogChangesTable;
  books: BooksTable;
  toc_entries: TocEntriesTable;
  users: UsersTable;
  shelf_entries: ShelfEntriesTable;
  ratings: RatingsTable;
  views: ViewsTable;
  book_readers: BookReadersTable;
  search_log: SearchLogTable;
  operators: OperatorsTable;
  uploads: UploadsTable;
  book_stats: BookStatsTable;
  search_stats: SearchStatsTable;
  stat_cuts: StatCutsTable;
  view_days: ViewDaysTable;
  book_values: BookValuesTable;
  book_keys: BookKeysTable;
}

export type Category = Selectable<CategoriesTable>;
export type Book = Selectable<BooksTable>;
/** the columns only the search indexes read, derived from title, author and publisher by the repository */
export type BookSearchColumns = 'grams' | 'title_nfkc' | 'author_nfkc' | 'publisher_nfkc';
export type NewBook = Omit<Insertable<BooksTable>, 'pos' | BookSearchColumns | 'created_at' | 'updated_at'>;
export type BookUpdate = Omit<Updateable<BooksTable>, 'id' | 'pos' | BookSearchColumns | 'created_at'>;
export type TocEntry = Selectable<TocEntriesTable>;
export type NewTocEntry = Omit<Insertable<TocEntriesTable>, 'book_id' | 'id'>;
export type User = Selectable<UsersTable>;
export type ShelfEntry = Selectable<ShelfEntriesTable>;
export type Rating = Selectable<RatingsTable>;
export type View = Selectable<ViewsTable>;
export type SearchLogRow = Selectable<SearchLogTable>;
export type Operator = Selectable<OperatorsTable>;
export type NewOperator = Omit<Insertable<OperatorsTable>, 'id' | 'created_at'>;
export type Upload = Selectable<UploadsTable>;

/** A database or a transaction on it: what repository functions that may run inside one take. */
export type Db = Kysely<Database> | Transaction<Database>;
