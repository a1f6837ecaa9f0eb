import type { BookRow } from '@readlib/data';
import type { CatalogView } from '../catalog-view.js';

/**
 * A feed of the OPDS catalogue as both dialects render it (OPDS 1.2 Atom, OPDS 2.0 JSON): what it
 * lists and where its links lead, by paths under the dialect's root (`/opds`, `/opds/v2`), so one
 * model serves both and neither renderer reads the catalogue.
 */
export interface OpdsFeed {
  /** stable `urn:` of this page of the feed */
  id: string;
  title: string;
  self: FeedRef;
  /** the feed one level up; the root has none */
  up?: FeedRef;
  /** navigation feeds: the feeds they lead to */
  navigation?: NavigationEntry[];
  /** acquisition feeds: the books of the page, each with a file to download */
  books?: BookRow[];
  paging?: FeedPaging;
}

export type FeedKind = 'navigation' | 'acquisition';

/** A feed as a link target: its path (with query) under the dialect's root, and its kind. */
export interface FeedRef {
  path: string;
  kind: FeedKind;
}

export interface NavigationEntry {
  /** stable `urn:` of what the entry stands for (a category, an author, a sort order) */
  id: string;
  title: string;
  target: FeedRef;
  /** OPDS relation of the link (`subsection`, `http://opds-spec.org/sort/new`, ...) */
  rel: string;
  /** books behind the entry, when known */
  count?: number;
  /** what the entry leads to, where its title and count do not say it */
  summary?: string;
}

export interface FeedPaging {
  /** 1-based */
  page: number;
  size: number;
  hasNext: boolean;
  /** the path of another page of the same feed */
  pathOf(page: number): string;
}

/** What a route asks for; the contracts validated its parameters. */
export type OpdsFeedRequest =
  | { feed: 'root' | 'categories' }
  | { feed: 'new' | 'popular' | 'authors' | 'publishers'; page: number }
  | { feed: 'category'; id: number; page: number }
  | { feed: 'author' | 'publisher'; name: string; page: number }
  | { feed: 'search'; query: string; page: number };

/**
 * How to answer one request. `key` names the answer among the catalogue memo's answers of the current
 * catalogue version (with the dialect, by the caller): equal keys, equal answers. `variant`: what the
 * answer depends on beside the catalogue, when anything does (the popular ranking's page, which views
 * move): without one, an answer holds for as long as the catalogue version does.
 */
export interface OpdsPlan<T> {
  key: string;
  variant?: string;
  /** the request's view of the catalogue, through which the answer is kept */
  view: CatalogView;
  build(): Promise<T>;
}
