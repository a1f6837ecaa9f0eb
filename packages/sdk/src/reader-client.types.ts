import type { BookSummary, SearchListQuery, ShelfParam } from '@readlib/contracts';
import type { ReaderRoutes } from '@readlib/contracts/routes';
import type { ReaderRouteTypes } from './route-calls.generated.js';
import type { Loose, RouteMethods } from './route-client.js';
import type { CallOptions, FetchLike } from './transport.js';

export interface ReaderClientOptions {
  /** e.g. `https://api.example.com` or `http://127.0.0.1:3000` (a trailing slash is fine) */
  baseUrl: string;
  /** default: the global `fetch`; pass an adapter in mini-program runtimes */
  fetch?: FetchLike | undefined;
  /** extra headers sent with every request */
  headers?: Record<string, string> | undefined;
  /**
   * milliseconds each call may wait for its whole answer before rejecting with kind `'timeout'` (a
   * call's own `timeoutMs` overrides it); default: no timeout. A positive finite number (at most
   * 2,147,483,647), else `createReaderClient` throws a RangeError.
   */
  timeoutMs?: number | undefined;
}

/** The filters of `searchList`, of which the service needs at least one (it combines them with AND). */
export type SearchListFilter = 'publisher' | 'author' | 'category' | 'categoryId';

/**
 * GET /book/search-list query: the contract's, with at least one filter, so a call without one does
 * not compile (the service answers it with kind `invalid`). `category` is a category's name, exactly;
 * `categoryId` its id as a string of digits.
 */
export type SearchListInput = Loose<SearchListQuery> &
  { [K in SearchListFilter]: { [P in K]-?: NonNullable<SearchListQuery[P]> } }[SearchListFilter];

/**
 * The reader API, one method per route of its table, named by the route's `operationId` (see
 * openapi/reader-api.json): the route's query or body, then an optional `call` (`{ signal?,
 * timeoutMs? }`: an AbortSignal and a timeout for that call only). Each resolves with the envelope's
 * `data` (nothing for an acknowledgement) and rejects with an `ApiError`.
 */
export interface ReaderClient
  extends Omit<RouteMethods<ReaderRoutes, ReaderRouteTypes>, 'saveShelf' | 'removeShelf' | 'searchList'> {
  /**
   * GET /book/search-list: Books by publisher, author, category name or id (filters combine with AND);
   * at least one filter.
   */
  searchList(query: SearchListInput, call?: CallOptions): Promise<BookSummary[]>;
  /** GET /book/shelf/save?shelf=<URL-encoded JSON {openId, fileName}> (idempotent) */
  saveShelf(shelf: ShelfParam, call?: CallOptions): Promise<void>;
  /** GET /book/shelf/remove?shelf=<URL-encoded JSON {openId, fileName}> */
  removeShelf(shelf: ShelfParam, call?: CallOptions): Promise<void>;
}
