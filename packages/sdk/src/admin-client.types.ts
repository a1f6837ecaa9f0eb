import type { AdminBookDetail, LoginData } from '@readlib/contracts';
import type { AdminRoutes, ResultOf } from '@readlib/contracts/routes';
import type { ApiError } from './api-error.js';
import type { BookListQuery } from './contract-types.js';
import type { AdminRouteTypes } from './route-calls.generated.js';
import type { Loose, RouteMethods } from './route-client.js';
import type { CallOptions, FetchLike, LocalFile, MiniProgramFetch, UploadCallOptions } from './transport.js';

/**
 * GET /book/list result: the page of books without the envelope's code and msg. An interface, so the
 * declarations a library over the SDK emits name it instead of spelling out its fields.
 */
export interface BookPage extends ResultOf<AdminRoutes['listBooks']> {}

/** An upload: a browser `File`/`Blob`, or bytes (a Node `Buffer` is a `Uint8Array`). */
export type UploadFile = Blob | Uint8Array;

export interface AdminClientOptions {
  /** e.g. `https://admin-api.example.com` or `http://127.0.0.1:3001` */
  baseUrl: string;
  /** a token kept from an earlier login */
  token?: string | undefined;
  /**
   * default: the global `fetch`. A mini-program adapter (`@readlib/sdk/wechat`, `/alipay`) makes a
   * `MiniProgramAdminClient`, whose `uploadBook` takes a local file path.
   */
  fetch?: FetchLike | MiniProgramFetch | undefined;
  /** extra headers sent with every request */
  headers?: Record<string, string> | undefined;
  /**
   * milliseconds each request may wait for its whole answer before rejecting with kind `'timeout'` (a
   * call's own `timeoutMs` overrides it; a retry after `onUnauthorized` gets a timer of its own);
   * default: no timeout. A positive finite number (at most 2,147,483,647), else `createAdminClient`
   * throws a RangeError.
   */
  timeoutMs?: number | undefined;
  /**
   * Called when a call is refused with 401 / code -2 (missing, expired or invalid token). Return a fresh
   * token to retry that call once with it (the token is kept for later calls); return nothing to let the
   * call reject with the `unauthorized` ApiError (also what happens when the hook throws; that
   * ApiError's `cause` is then what the hook threw).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only redirects to a login page returns void
  onUnauthorized?:
    | ((error: ApiError) => string | undefined | void | Promise<string | undefined | void>)
    | undefined;
}

/**
 * The administration API, one method per route of its table, named by the route's `operationId` (see
 * openapi/admin-api.json): the route's query or body, then an optional `call` (`{ signal?, timeoutMs?
 * }`: an AbortSignal and a timeout for that call only; the signal also applies to a retry after
 * `onUnauthorized`). Every call but `login` and the health endpoints sends `Authorization: Bearer
 * <token>`. Each resolves with the envelope's `data` (nothing for an acknowledgement, the page for
 * `listBooks`) and rejects with an `ApiError`.
 */
export interface AdminClient
  extends Omit<
    RouteMethods<AdminRoutes, AdminRouteTypes>,
    'getBook' | 'listBooks' | 'login' | 'logout' | 'uploadBook'
  > {
  /**
   * GET /book/list: a page of the catalogue, filtered and sorted (`sort`: a field of
   * `BOOK_LIST_SORT_FIELDS`, `-field` descending, `+field` ascending; default `-id`). `category`
   * filters by a category's name, exactly (`'Economics'`), not by its id.
   */
  listBooks(query?: Loose<BookListQuery>, call?: CallOptions): Promise<BookPage>;
  /**
   * GET /book/get: One e-book with its flat and nested table of contents. `fileName` is required here:
   * the service answers code -1 without it (the contract leaves it optional for the original console).
   */
  getBook(query: { fileName: string }, call?: CallOptions): Promise<AdminBookDetail>;
  /** POST /user/login: keeps the token for the calls that follow, and returns it */
  login(username: string, password: string, call?: CallOptions): Promise<LoginData>;
  /**
   * POST /user/logout: the service refuses this token and the operator's other tokens from then on
   * (other browsers' too); the client forgets the token, also when the call fails (a network error:
   * the token stays valid on the service until it expires)
   */
  logout(call?: CallOptions): Promise<void>;
  /** Replaces (or with no argument, forgets) the token sent with later calls. */
  setToken(token?: string): void;
  getToken(): string | undefined;
  /**
   * POST /book/upload (multipart field `file`, sent as `fileName`, else the file's own name, else
   * `book.epub`); then `createBook({ fileName })` adds it to the catalogue. `call.onProgress` follows
   * the upload (see `UploadCallOptions`: byte by byte in browsers, the end only in Node).
   */
  uploadBook(file: UploadFile, fileName?: string, call?: UploadCallOptions): Promise<AdminBookDetail>;
}

/**
 * The admin client over a mini-program adapter: the same methods, but `uploadBook` sends a local file
 * through the platform's `uploadFile` (those runtimes have no `FormData` or `Blob`).
 */
export interface MiniProgramAdminClient extends Omit<AdminClient, 'uploadBook'> {
  /**
   * POST /book/upload of a local file (multipart field `file`). The platforms name the part after the
   * local path (a temporary name), so the book's `originalName` is that name. `call.onProgress`
   * follows the platform's `UploadTask.onProgressUpdate`.
   */
  uploadBook(file: LocalFile, call?: UploadCallOptions): Promise<AdminBookDetail>;
}
