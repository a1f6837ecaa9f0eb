import type {
  BookContents,
  BookDetail,
  BookSummary,
  CategoryItem,
  ContentsQuery,
  DetailQuery,
  Health,
  HomeData,
  HomeQuery,
  HotSearchItem,
  OpenIdData,
  OpenIdQuery,
  PayOpenIdQuery,
  RankSaveQuery,
  Ready,
  RegisterBody,
  SearchListQuery,
  SearchQuery,
  SearchResult,
  ShelfEntry,
  ShelfGetQuery,
  ShelfParam,
  UserDayData,
  UserDayQuery,
} from '@readlib/contracts';
import type { CallOptions, FetchLike } from './transport.js';

export interface ReaderClientOptions {
  /** e.g. `https://api.example.com` or `http://127.0.0.1:3000` (a trailing slash is fine) */
  baseUrl: string;
  /** default: the global `fetch`; pass an adapter in mini-program runtimes */
  fetch?: FetchLike;
  /** extra headers sent with every request */
  headers?: Record<string, string>;
  /**
   * milliseconds each call may wait for its whole answer before rejecting with kind `'timeout'` (a
   * call's own `timeoutMs` overrides it); default: no timeout. A positive finite number (at most
   * 2,147,483,647), else `createReaderClient` throws a RangeError.
   */
  timeoutMs?: number;
}

/**
 * The reader API, one method per route, named by its `operationId` (see openapi/reader-api.json).
 * Parameters and results are the contracts' static types; every method resolves with the envelope's
 * `data` (void for acknowledgements) and rejects with an `ApiError`. Every method takes an optional last argument
 * `call` (`{ signal?, timeoutMs? }`): an AbortSignal and a timeout for that call only.
 */
export interface ReaderClient {
  /** GET /book/home/v2 */
  getHome(query: HomeQuery, call?: CallOptions): Promise<HomeData>;
  /** GET /book/home/recommend/v2: another batch of recommended books */
  getRecommendBatch(call?: CallOptions): Promise<BookSummary[]>;
  /** GET /book/home/freeRead/v2 */
  getFreeReadBatch(call?: CallOptions): Promise<BookSummary[]>;
  /** GET /book/home/hotBook/v2 */
  getHotBookBatch(call?: CallOptions): Promise<BookSummary[]>;
  /** GET /book/hot-search */
  getHotSearch(call?: CallOptions): Promise<HotSearchItem[]>;
  /** GET /book/category/list/v2 */
  listCategories(call?: CallOptions): Promise<CategoryItem[]>;
  /** GET /book/search */
  searchBooks(query: SearchQuery, call?: CallOptions): Promise<SearchResult>;
  /** GET /book/search-list: at least one of publisher, author, category, categoryId */
  searchList(query: SearchListQuery, call?: CallOptions): Promise<BookSummary[]>;
  /** GET /book/detail: with an openId, records a view */
  getBookDetail(query: DetailQuery, call?: CallOptions): Promise<BookDetail>;
  /** GET /book/contents */
  getBookContents(query: ContentsQuery, call?: CallOptions): Promise<BookContents>;
  /** GET /book/rank/save */
  saveRank(query: RankSaveQuery, call?: CallOptions): Promise<void>;
  /** GET /book/shelf/get */
  getShelf(query: ShelfGetQuery, call?: CallOptions): Promise<ShelfEntry[]>;
  /** GET /book/shelf/save?shelf=<URL-encoded JSON {openId, fileName}> */
  saveShelf(shelf: ShelfParam, call?: CallOptions): Promise<void>;
  /** GET /book/shelf/remove?shelf=<URL-encoded JSON {openId, fileName}> */
  removeShelf(shelf: ShelfParam, call?: CallOptions): Promise<void>;
  /** POST /user/register (an upsert keyed by openId) */
  registerUser(body: RegisterBody, call?: CallOptions): Promise<void>;
  /** GET /user/day */
  getUserDay(query: UserDayQuery, call?: CallOptions): Promise<UserDayData>;
  /** GET /openId/get (messaging platform) */
  getWechatOpenId(query: OpenIdQuery, call?: CallOptions): Promise<OpenIdData>;
  /** GET /openId/get/payplatform (payment platform, as the spec writes it) */
  getPayPlatformOpenId(query: PayOpenIdQuery, call?: CallOptions): Promise<OpenIdData>;
  /** GET /openId/get/alipay (the same, at the path existing clients call) */
  getAlipayOpenId(query: PayOpenIdQuery, call?: CallOptions): Promise<OpenIdData>;
  /** GET /healthz (outside the envelope) */
  health(call?: CallOptions): Promise<Health>;
  /** GET /readyz (outside the envelope; resolves with `status: 'unavailable'` on 503) */
  ready(call?: CallOptions): Promise<Ready>;
}
