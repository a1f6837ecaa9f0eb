import type {
  AdminBook,
  AdminBookDetail,
  AdminCategory,
  AdminPage,
  AdminUser,
  BookCreateBody,
  BookListQuery,
  BookUpdateBody,
  DashboardTotals,
  FileNameQuery,
  Health,
  LoginData,
  MapItem,
  OptionalFileNameQuery,
  Ready,
  ScatterData,
  ScreenData,
  ScreenQuery,
  WordCloudItem,
} from '@readlib/contracts';
import type { ApiError } from './api-error.js';
import type { CallOptions, FetchLike, LocalFile, MiniProgramFetch } from './transport.js';

/** GET /book/list result: the contracts' `AdminPage(AdminBook)` without the envelope's code and msg. */
export type BookPage = Omit<ReturnType<typeof AdminPage<typeof AdminBook>>['static'], 'code' | 'msg'>;

/** An upload: a browser `File`/`Blob`, or bytes (a Node `Buffer` is a `Uint8Array`). */
export type UploadFile = Blob | Uint8Array;

export interface AdminClientOptions {
  /** e.g. `https://admin-api.example.com` or `http://127.0.0.1:3001` */
  baseUrl: string;
  /** a token kept from an earlier login */
  token?: string;
  /**
   * default: the global `fetch`. A mini-program adapter (`@readlib/sdk/wechat`, `/alipay`) makes a
   * `MiniProgramAdminClient`, whose `uploadBook` takes a local file path.
   */
  fetch?: FetchLike | MiniProgramFetch;
  /** extra headers sent with every request */
  headers?: Record<string, string>;
  /**
   * milliseconds each request may wait for its whole answer before rejecting with kind `'timeout'` (a
   * call's own `timeoutMs` overrides it; a retry after `onUnauthorized` gets a timer of its own);
   * default: no timeout. A positive finite number (at most 2,147,483,647), else `createAdminClient`
   * throws a RangeError.
   */
  timeoutMs?: number;
  /**
   * Called when a call is refused with 401 / code -2 (missing, expired or invalid token). Return a fresh
   * token to retry that call once with it (the token is kept for later calls); return nothing to let the
   * call reject with the `unauthorized` ApiError (also what happens when the hook throws).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only redirects to a login page returns void
  onUnauthorized?: (error: ApiError) => string | undefined | void | Promise<string | undefined | void>;
}

/**
 * The administration API, one method per route, named by its `operationId` (see
 * openapi/admin-api.json). Every call but `login` and the health endpoints sends `Authorization: Bearer <token>`. Every method
 * that sends a request takes an optional last argument `call` (`{ signal?, timeoutMs? }`): an
 * AbortSignal and a timeout for that call only (the signal also applies to a retry after `onUnauthorized`).
 */
export interface AdminClient {
  /** POST /user/login: keeps the token for the calls that follow, and returns it */
  login(username: string, password: string, call?: CallOptions): Promise<LoginData>;
  /** Replaces (or with no argument, forgets) the token sent with later calls. */
  setToken(token?: string): void;
  getToken(): string | undefined;
  /** GET /user/info */
  getUserInfo(call?: CallOptions): Promise<AdminUser>;
  /** POST /user/info */
  postUserInfo(call?: CallOptions): Promise<AdminUser>;
  /** GET /book/home: catalogue totals */
  getDashboard(call?: CallOptions): Promise<DashboardTotals>;
  /** GET /book/list: resolves with `{data, page, pageSize, total}` */
  listBooks(query?: BookListQuery, call?: CallOptions): Promise<BookPage>;
  /** GET /book/get */
  getBook(query: OptionalFileNameQuery, call?: CallOptions): Promise<AdminBookDetail>;
  /** POST /book/update: changes only the fields sent */
  updateBook(body: BookUpdateBody, call?: CallOptions): Promise<void>;
  /** GET /book/delete */
  deleteBook(query: FileNameQuery, call?: CallOptions): Promise<void>;
  /**
   * POST /book/upload (multipart field `file`, sent as `fileName`, else the file's own name, else
   * `book.epub`); then `createBook({ fileName })` adds it to the catalogue
   */
  uploadBook(file: UploadFile, fileName?: string, call?: CallOptions): Promise<AdminBookDetail>;
  /** POST /book/create */
  createBook(body: BookCreateBody, call?: CallOptions): Promise<void>;
  /** GET /book/category */
  listCategories(call?: CallOptions): Promise<AdminCategory[]>;
  /** GET /screen/data */
  getScreenData(query?: ScreenQuery, call?: CallOptions): Promise<ScreenData>;
  /** GET /screen/wordcloud */
  getWordCloud(query?: ScreenQuery, call?: CallOptions): Promise<WordCloudItem[]>;
  /** GET /screen/map */
  getScreenMap(query?: ScreenQuery, call?: CallOptions): Promise<MapItem[]>;
  /** GET /screen/map/scatter */
  getScreenScatter(query?: ScreenQuery, call?: CallOptions): Promise<ScatterData>;
  /** GET /healthz (outside the envelope, no token) */
  health(call?: CallOptions): Promise<Health>;
  /** GET /readyz (outside the envelope, no token; resolves with `status: 'unavailable'` on 503) */
  ready(call?: CallOptions): Promise<Ready>;
}

/**
 * The admin client over a mini-program adapter: the same methods, but `uploadBook` sends a local file
 * through the platform's `uploadFile` (those runtimes have no `FormData` or `Blob`).
 */
export interface MiniProgramAdminClient extends Omit<AdminClient, 'uploadBook'> {
  /**
   * POST /book/upload of a local file (multipart field `file`). The platforms name the part after the
   * local path (a temporary name), so the book's `originalName` is that name.
   */
  uploadBook(file: LocalFile, call?: CallOptions): Promise<AdminBookDetail>;
}
