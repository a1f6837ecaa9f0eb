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
import type { FetchLike } from './transport.js';

export interface ReaderClientOptions {
  /** e.g. `https://api.example.com` or `http://127.0.0.1:3000` (a trailing slash is fine) */
  baseUrl: string;
  /** default: the global `fetch`; pass an adapter in mini-program runtimes */
  fetch?: FetchLike;
  /** extra headers sent with every request */
  headers?: Record<string, string>;
}

/**
 * The reader API (spec §4.1-§4.10), one method per route, named by its `operationId`. Parameters and
 * results are the contracts' static types; every method resolves with the envelope's `data` (void for
 * acknowledgements) and rejects with an `ApiError`.
 */
export interface ReaderClient {
  /** GET /book/home/v2 */
  getHome(query: HomeQuery): Promise<HomeData>;
  /** GET /book/home/recommend/v2: another batch of recommended books */
  getRecommendBatch(): Promise<BookSummary[]>;
  /** GET /book/home/freeRead/v2 */
  getFreeReadBatch(): Promise<BookSummary[]>;
  /** GET /book/home/hotBook/v2 */
  getHotBookBatch(): Promise<BookSummary[]>;
  /** GET /book/hot-search */
  getHotSearch(): Promise<HotSearchItem[]>;
  /** GET /book/category/list/v2 */
  listCategories(): Promise<CategoryItem[]>;
  /** GET /book/search */
  searchBooks(query: SearchQuery): Promise<SearchResult>;
  /** GET /book/search-list: at least one of publisher, author, category, categoryId */
  searchList(query: SearchListQuery): Promise<BookSummary[]>;
  /** GET /book/detail: with an openId, records a view */
  getBookDetail(query: DetailQuery): Promise<BookDetail>;
  /** GET /book/contents */
  getBookContents(query: ContentsQuery): Promise<BookContents>;
  /** GET /book/rank/save */
  saveRank(query: RankSaveQuery): Promise<void>;
  /** GET /book/shelf/get */
  getShelf(query: ShelfGetQuery): Promise<ShelfEntry[]>;
  /** GET /book/shelf/save?shelf=<URL-encoded JSON {openId, fileName}> */
  saveShelf(shelf: ShelfParam): Promise<void>;
  /** GET /book/shelf/remove?shelf=<URL-encoded JSON {openId, fileName}> */
  removeShelf(shelf: ShelfParam): Promise<void>;
  /** POST /user/register (an upsert keyed by openId) */
  registerUser(body: RegisterBody): Promise<void>;
  /** GET /user/day */
  getUserDay(query: UserDayQuery): Promise<UserDayData>;
  /** GET /openId/get (messaging platform) */
  getWechatOpenId(query: OpenIdQuery): Promise<OpenIdData>;
  /** GET /openId/get/payplatform (payment platform, as the spec writes it) */
  getPayPlatformOpenId(query: PayOpenIdQuery): Promise<OpenIdData>;
  /** GET /openId/get/alipay (the same, at the path existing clients call) */
  getAlipayOpenId(query: PayOpenIdQuery): Promise<OpenIdData>;
  /** GET /healthz (outside the envelope) */
  health(): Promise<Health>;
  /** GET /readyz (outside the envelope; resolves with `status: 'unavailable'` on 503) */
  ready(): Promise<Ready>;
}
