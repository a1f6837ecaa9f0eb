import type { AlipayApi, AlipayRequestOptions, AlipayUploadOptions } from '../src/alipay.adapter.js';
import {
  type HeaderCase,
  type HttpAnswer,
  type HttpFailure,
  platformHeaders,
  platformHttp,
  progressEvents,
  taskOf,
  uploadHttp,
} from './platform-http.js';

/**
 * Alipay's `my.request` / `my.uploadFile` over real HTTP, with the semantics of the platform's API
 * reference and typings (@mini-types/alipay):
 * - request headers in `headers` (`content-type` defaults to `application/json`), `timeout` default 30000;
 * - `dataType` `'json'` (the default) parses the body and fails with `{ error: 14, errorMessage:
 *   'JSON parse data error' }` when it is not JSON; `'text'` leaves it a string;
 * - a 2xx answer calls `success({ status, headers, data })` (newer base libraries: also `statusCode`,
 *   `header`); any other status calls `fail({ error: 19, errorMessage: 'http status error' })`, with
 *   the answer's `status`, `headers` and `data` alongside unless `bareHttpErrors`;
 * - `fail({ error: 13 })` on timeout, `{ error: 12 }` when no answer came, `{ error: 9 }` after `abort()`;
 * - `my.uploadFile` sends `filePath` as multipart field `name` (older base libraries: `fileName`),
 *   needs a `fileType`, and answers `{ statusCode, header, data }` (`statusCode` a string in older ones);
 *   its task's `onProgressUpdate` hears `{ progress, totalBytesWritten, totalBytesExpectedToWrite }` as
 *   the multipart body goes out.
 */
export interface AlipayStandInOptions {
  headerCase?: HeaderCase;
  /** a newer base library: `statusCode`/`header` besides `status`/`headers`, a numeric upload status */
  newer?: boolean;
  /** error 19 without the answer's status, headers and body */
  bareHttpErrors?: boolean;
  /** the timeout of a call that sets none: the platform's 30000 ms, shortened for a test */
  defaultTimeoutMs?: number;
}

export function alipayStandIn(options: AlipayStandInOptions = {}) {
  const seen = {
    request: [] as AlipayRequestOptions[],
    uploadFile: [] as AlipayUploadOptions[],
    aborted: 0,
    progressListeners: 0,
  };
  const headerCase = options.headerCase ?? 'as-sent';
  const codes = { timeout: 13, network: 12, abort: 9 } as const;
  const failure = (fail: AlipayRequestOptions['fail']) => (f: HttpFailure) =>
    fail?.({ error: codes[f.reason], errorMessage: f.message });
  /** error 19 for a status outside 2xx; true when it was one */
  const httpError = (answer: HttpAnswer, data: unknown, fail: AlipayRequestOptions['fail']) => {
    if (answer.status >= 200 && answer.status < 300) return false;
    const response = options.bareHttpErrors ? {} : { status: answer.status, headers: answer.headers, data };
    fail?.({ error: 19, errorMessage: 'http status error', ...response });
    return true;
  };

  const my: AlipayApi = {
    request(o) {
      seen.request.push(o);
      const headers = platformHeaders(o.headers);
      const call = platformHttp(
        {
          url: o.url,
          method: o.method ?? 'GET',
          headers,
          body: o.data,
          timeoutMs: o.timeout ?? options.defaultTimeoutMs ?? 30_000,
          headerCase,
        },
        (answer) => {
          let data: unknown = answer.body;
          if (o.dataType === undefined || (o.dataType as string) === 'json') {
            try {
              data = JSON.parse(answer.body);
            } catch {
              o.fail?.({ error: 14, errorMessage: 'JSON parse data error' });
              return;
            }
          }
          if (httpError(answer, data, o.fail)) return;
          const result = { status: answer.status, headers: answer.headers, data };
          o.success?.(
            options.newer ? { ...result, statusCode: answer.status, header: answer.headers } : result,
          );
        },
        failure(o.fail),
      );
      return taskOf(call, seen);
    },
    uploadFile(o) {
      seen.uploadFile.push(o);
      const progress = progressEvents(seen, (sent, total) => ({
        progress: Math.floor((sent / total) * 100),
        totalBytesWritten: sent,
        totalBytesExpectedToWrite: total,
      }));
      const call = uploadHttp(
        o.filePath,
        o.name ?? o.fileName,
        {
          url: o.url,
          headers: { ...o.header },
          timeoutMs: o.timeout ?? 60_000,
          headerCase,
          onSent: progress.onSent,
        },
        (answer) => {
          const statusCode = options.newer ? answer.status : String(answer.status);
          const result = { statusCode, header: answer.headers, data: answer.body };
          o.success?.(result);
        },
        failure(o.fail),
      );
      return { ...taskOf(call, seen), onProgressUpdate: progress.onProgressUpdate };
    },
  };
  return { my, seen };
}
