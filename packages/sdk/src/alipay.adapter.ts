/**
 * `@readlib/sdk/alipay`: the SDK's fetch over Alipay mini-program networking (`my.request`,
 * `my.uploadFile`). What it relies on, from the platform's API reference and typings:
 * - request headers go in `headers` (newer base libraries also read `header`); `timeout` in
 *   milliseconds (default 30000); `dataType` `'json'` (the default, which fails with error 14 on a
 *   body that is not JSON) or `'text'`.
 * - `success` answers `{ status, headers, data }`; newer base libraries add `statusCode` and `header`.
 * - `fail` answers `{ error, errorMessage }`: 13 is a timeout, 12 a network error, and 19
 *   (`'http status error'`) an answer whose HTTP status is an error. When that answer's `status`,
 *   `headers` and `data` come with it, they are the response (the service's error envelope).
 * - `my.uploadFile` posts one local file (`filePath`) as multipart field `name` (`fileName` in older
 *   base libraries), requires a `fileType` of `image`, `video` or `audio`, and answers
 *   `{ statusCode, header, data }` (`statusCode` a string in older base libraries); its task's
 *   `onProgressUpdate` reports `{ progress, totalBytesWritten, totalBytesExpectedToWrite }`.
 * - both calls return a task whose `abort()` cancels the request.
 */
import type { FetchInit, MiniProgramFetch, UploadInit } from './index.js';
import {
  type PlatformTask,
  type PlatformUploadTask,
  platformCall,
  platformError,
  requestOptions,
  responseOf,
  uploadOptions,
  watchProgress,
} from './mini-program.adapter.js';

interface AlipayFail {
  error?: number;
  errorMessage?: string;
  status?: number;
  headers?: object;
  data?: unknown;
}

/** The options of `my.request` the adapter sets. */
export interface AlipayRequestOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  data?: string;
  dataType?: 'text';
  timeout?: number;
  success?(result: {
    status?: number;
    statusCode?: number;
    headers?: object;
    header?: object;
    data: unknown;
  }): void;
  fail?(error: AlipayFail): void;
}

/** The options of `my.uploadFile` the adapter sets. */
export interface AlipayUploadOptions {
  url: string;
  filePath: string;
  name: string;
  fileName?: string;
  fileType: string;
  header?: Record<string, string>;
  timeout?: number;
  success?(result: { statusCode: number | string; header?: object; data: string }): void;
  fail?(error: AlipayFail): void;
}

/** What `UploadTask.onProgressUpdate` hands its listener on Alipay. */
export interface AlipayUploadProgress {
  progress: number;
  totalBytesWritten: number;
  totalBytesExpectedToWrite: number;
}

/** The part of Alipay's `my` object the adapter calls: pass `my` itself. */
export interface AlipayApi {
  request(options: AlipayRequestOptions): PlatformTask;
  uploadFile(options: AlipayUploadOptions): PlatformUploadTask<AlipayUploadProgress>;
}

const bytesOf = (e: AlipayUploadProgress) => ({
  loaded: e.totalBytesWritten,
  total: e.totalBytesExpectedToWrite,
});

const TIMEOUT = 13;
const HTTP_STATUS_ERROR = 19;

/** `fail` as the SDK sees it: an error answer that carries its response, or an error. */
function failed(
  error: AlipayFail,
  resolve: (r: ReturnType<typeof responseOf>) => void,
  reject: (e: Error) => void,
) {
  if (error.error === HTTP_STATUS_ERROR && typeof error.status === 'number' && error.status > 0) {
    resolve(responseOf(error.status, error.headers, error.data));
    return;
  }
  const message = `${error.errorMessage ?? 'request failed'} (error ${error.error ?? 'unknown'})`;
  reject(platformError(message, error.error === TIMEOUT));
}

/**
 * The SDK's fetch over `my.request` / `my.uploadFile`: pass the result as `fetch` to
 * `createReaderClient` or `createAdminClient` (then `uploadBook` takes `{ filePath }`).
 */
export function alipayFetch(my: AlipayApi): MiniProgramFetch {
  const request = (url: string, init: FetchInit) =>
    platformCall(init.signal, (resolve, reject) =>
      my.request({
        ...requestOptions(url, init),
        headers: init.headers,
        success: (res) =>
          resolve(responseOf(res.status ?? res.statusCode ?? 0, res.headers ?? res.header, res.data)),
        fail: (error) => failed(error, resolve, reject),
      }),
    );
  const uploadFile = (url: string, init: UploadInit) =>
    platformCall(init.signal, (resolve, reject) =>
      watchProgress(
        my.uploadFile({
          ...uploadOptions(url, init),
          name: init.field,
          fileName: init.field,
          // required, and only image/video/audio are named: the service reads the part's bytes, not its type
          fileType: 'image',
          header: init.headers,
          success: (res) => resolve(responseOf(Number(res.statusCode), res.header, res.data)),
          fail: (error) => failed(error, resolve, reject),
        }),
        init,
        bytesOf,
      ),
    );
  return Object.assign(request, { uploadFile });
}
