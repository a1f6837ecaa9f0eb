import type { WechatApi, WechatRequestOptions, WechatUploadOptions } from '../src/wechat.adapter.js';
import {
  type HeaderCase,
  type HttpFailure,
  platformHeaders,
  platformHttp,
  progressEvents,
  taskOf,
  uploadHttp,
} from './platform-http.js';

/**
 * WeChat's `wx.request` / `wx.uploadFile` over real HTTP, with the semantics of the platform's API
 * reference (and miniprogram-api-typings):
 * - `success` for any HTTP status: `{ statusCode, header, data, cookies, errMsg: 'request:ok' }`;
 * - `dataType` `'json'` (the default) parses the body, leaving it a string when it is not JSON; any
 *   other value leaves it a string;
 * - `header['content-type']` defaults to `application/json`;
 * - `timeout` defaults to 60000 ms (app.json `networkTimeout`), then `fail({ errMsg: 'request:fail timeout' })`;
 *   no answer at all is `fail({ errMsg: 'request:fail <reason>' })`; `task.abort()` ends in
 *   `fail({ errMsg: 'request:fail abort' })`;
 * - `wx.uploadFile` sends `filePath` as multipart field `name`, the part named after the path, and
 *   answers `{ statusCode, data, errMsg: 'uploadFile:ok' }`: `data` is always the raw string, no headers;
 *   its task's `onProgressUpdate` hears `{ progress, totalBytesSent, totalBytesExpectedToSend }` as the
 *   multipart body goes out (`progress` a whole percentage).
 */
export interface WechatStandInOptions {
  headerCase?: HeaderCase;
  /** the app's `networkTimeout`, used when a call sets no `timeout` */
  networkTimeoutMs?: number;
  /** a platform that parses JSON bodies whatever `dataType` says */
  parsesJsonAnyway?: boolean;
}

export function wechatStandIn(options: WechatStandInOptions = {}) {
  const seen = {
    request: [] as WechatRequestOptions[],
    uploadFile: [] as WechatUploadOptions[],
    aborted: 0,
    progressListeners: 0,
  };
  const headerCase = options.headerCase ?? 'as-sent';
  const timeoutOf = (timeout: number | undefined) => timeout ?? options.networkTimeoutMs ?? 60_000;
  const failure = (api: string, fail: ((e: { errMsg: string }) => void) | undefined) => (f: HttpFailure) =>
    fail?.({ errMsg: `${api}:fail ${f.reason === 'network' ? f.message : f.reason}` });

  const wx: WechatApi = {
    request(o) {
      seen.request.push(o);
      const headers = platformHeaders(o.header);
      const parse = options.parsesJsonAnyway || o.dataType === undefined || o.dataType === 'json';
      const call = platformHttp(
        {
          url: o.url,
          method: o.method ?? 'GET',
          headers,
          body: o.data,
          timeoutMs: timeoutOf(o.timeout),
          headerCase,
        },
        (answer) => {
          let data: unknown = answer.body;
          if (parse) {
            try {
              data = JSON.parse(answer.body);
            } catch {}
          }
          const result = {
            statusCode: answer.status,
            header: answer.headers,
            data,
            cookies: [],
            errMsg: 'request:ok',
          };
          o.success?.(result);
        },
        failure('request', o.fail),
      );
      return taskOf(call, seen);
    },
    uploadFile(o) {
      seen.uploadFile.push(o);
      const progress = progressEvents(seen, (sent, total) => ({
        progress: Math.floor((sent / total) * 100),
        totalBytesSent: sent,
        totalBytesExpectedToSend: total,
      }));
      const call = uploadHttp(
        o.filePath,
        o.name,
        {
          url: o.url,
          headers: { ...o.header },
          timeoutMs: timeoutOf(o.timeout),
          headerCase,
          onSent: progress.onSent,
        },
        (answer) => {
          const result = { statusCode: answer.status, data: answer.body, errMsg: 'uploadFile:ok' };
          o.success?.(result);
        },
        failure('uploadFile', o.fail),
      );
      return { ...taskOf(call, seen), onProgressUpdate: progress.onProgressUpdate };
    },
  };
  return { wx, seen };
}
