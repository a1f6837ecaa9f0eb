/**
 * `@readlib/sdk/wechat`: the SDK's fetch over WeChat mini-program networking (`wx.request`,
 * `wx.uploadFile`). What it relies on, from the platform's API reference:
 * - `success` is called for every HTTP status, with `statusCode`, `header` (names as the device's HTTP
 *   stack gives them) and `data`; `fail` only when no answer came, with `{ errMsg }`, e.g.
 *   `"request:fail timeout"` after `timeout` milliseconds (default 60000, or app.json `networkTimeout`).
 * - `dataType: 'json'` (the default) runs `JSON.parse` on the body; any other value leaves it a string.
 * - both calls return a task whose `abort()` cancels the request.
 * - `wx.uploadFile` posts one local file (`filePath`) as multipart field `name`, answers
 *   `{ statusCode, data }` with `data` always a string, and names the part after the local path;
 *   its task's `onProgressUpdate` reports `{ progress, totalBytesSent, totalBytesExpectedToSend }`
 *   (base library 1.4.0 and later).
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

interface WechatFail {
  errMsg: string;
}

/** The options of `wx.request` the adapter sets. */
export interface WechatRequestOptions {
  url: string;
  method?: 'GET' | 'POST';
  header?: Record<string, string>;
  data?: string;
  dataType?: string;
  responseType?: 'text';
  timeout?: number;
  success?(result: { statusCode: number; header: object; data: unknown }): void;
  fail?(error: WechatFail): void;
}

/** The options of `wx.uploadFile` the adapter sets. */
export interface WechatUploadOptions {
  url: string;
  filePath: string;
  name: string;
  header?: Record<string, string>;
  timeout?: number;
  success?(result: { statusCode: number; data: string }): void;
  fail?(error: WechatFail): void;
}

/** What `UploadTask.onProgressUpdate` hands its listener on WeChat. */
export interface WechatUploadProgress {
  progress: number;
  totalBytesSent: number;
  totalBytesExpectedToSend: number;
}

/** The part of WeChat's `wx` object the adapter calls: pass `wx` itself. */
export interface WechatApi {
  request(options: WechatRequestOptions): PlatformTask;
  uploadFile(options: WechatUploadOptions): PlatformUploadTask<WechatUploadProgress>;
}

const bytesOf = (e: WechatUploadProgress) => ({
  loaded: e.totalBytesSent,
  total: e.totalBytesExpectedToSend,
});

const failure = (error: WechatFail) => platformError(error.errMsg, /\btimeout\b/i.test(error.errMsg));

/**
 * The SDK's fetch over `wx.request` / `wx.uploadFile`: pass the result as `fetch` to
 * `createReaderClient` or `createAdminClient` (then `uploadBook` takes `{ filePath }`).
 */
export function wechatFetch(wx: WechatApi): MiniProgramFetch {
  const request = (url: string, init: FetchInit) =>
    platformCall(init.signal, (resolve, reject) =>
      wx.request({
        ...requestOptions(url, init),
        header: init.headers,
        responseType: 'text',
        success: (res) => resolve(responseOf(res.statusCode, res.header, res.data)),
        fail: (error) => reject(failure(error)),
      }),
    );
  const uploadFile = (url: string, init: UploadInit) =>
    platformCall(init.signal, (resolve, reject) =>
      watchProgress(
        wx.uploadFile({
          ...uploadOptions(url, init),
          name: init.field,
          header: init.headers,
          // no response headers here: the SDK finds no x-request-id on an upload's answer
          success: (res) => resolve(responseOf(res.statusCode, undefined, res.data)),
          fail: (error) => reject(failure(error)),
        }),
        init,
        bytesOf,
      ),
    );
  return Object.assign(request, { uploadFile });
}
