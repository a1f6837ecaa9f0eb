// the public entry, so the published declarations of the adapters import these from the main bundle
import type { FetchInit, FetchResponseLike, UploadInit, UploadProgress } from './index.js';

/** What the platforms' request and upload calls return: a task whose `abort()` cancels the request. */
export interface PlatformTask {
  // any arity: Alipay's typings declare `abort(options)`, WeChat's `abort()`; both are called bare
  abort(...args: never[]): unknown;
}

/**
 * What the platforms' `uploadFile` returns: a task that also reports the upload's progress, in each
 * platform's own words (`E`). Base libraries too old to have `onProgressUpdate` report none.
 */
export interface PlatformUploadTask<E> extends PlatformTask {
  onProgressUpdate?(listener: (event: E) => void): void;
}

/**
 * The upload task, its progress events passed on to the SDK as `{ loaded, total }` when the call
 * listens (`init.onUploadProgress`); a call that does not listen registers nothing.
 */
export function watchProgress<E, T extends PlatformUploadTask<E>>(
  task: T,
  init: UploadInit,
  bytesOf: (event: E) => UploadProgress,
): T {
  const listener = init.onUploadProgress;
  if (listener && typeof task?.onProgressUpdate === 'function') {
    task.onProgressUpdate((event) => listener(bytesOf(event)));
  }
  return task;
}

/**
 * A case-insensitive view of a platform's response headers. The platforms hand the names over as the
 * server sent them, or re-cased by the device's HTTP stack (`Content-Type`, `X-Request-Id`); a
 * repeated header may come as an array.
 */
function headersOf(raw: unknown): FetchResponseLike['headers'] {
  const entries = typeof raw === 'object' && raw !== null ? Object.entries(raw) : [];
  return {
    get(name) {
      const wanted = name.toLowerCase();
      const found = entries.find(([key]) => key.toLowerCase() === wanted);
      if (!found || found[1] === undefined || found[1] === null) return null;
      return Array.isArray(found[1]) ? found[1].join(', ') : String(found[1]);
    },
  };
}

/**
 * The body as text. The adapters ask for text (`dataType: 'text'`), so a body that is not JSON (a
 * proxy's error page) reaches the SDK intact instead of failing the platform's JSON parse; a platform
 * that parsed it anyway hands an object, serialised back here.
 */
function bodyText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data === undefined || data === null) return '';
  if (data instanceof ArrayBuffer) {
    return typeof TextDecoder === 'function' ? new TextDecoder().decode(data) : '';
  }
  return JSON.stringify(data);
}

/**
 * The request body: the SDK sends JSON text; a form (an upload of bytes) has no way through these
 * platforms, whose uploads take a local file path instead.
 */
function textBody(init: FetchInit): { data?: string } {
  if (init.body === undefined) return {};
  if (typeof init.body === 'string') return { data: init.body };
  throw platformError(
    'mini-program requests carry text only: upload a book with uploadBook({ filePath })',
    false,
  );
}

/** The call's timeout as the platforms' `timeout` option, when it has one. */
const timeoutOption = (init: { timeoutMs?: number }) =>
  init.timeoutMs === undefined ? {} : { timeout: init.timeoutMs };

/**
 * The options both platforms' `request` take alike: URL, method, the body as text, the body of the
 * answer asked for as text (see `bodyText`), and the call's timeout.
 */
export function requestOptions(url: string, init: FetchInit) {
  return {
    url,
    method: init.method as 'GET' | 'POST',
    ...textBody(init),
    dataType: 'text' as const,
    ...timeoutOption(init),
  };
}

/** The options both platforms' `uploadFile` take alike: URL, the local file, the call's timeout. */
export function uploadOptions(url: string, init: UploadInit) {
  return { url, filePath: init.filePath, ...timeoutOption(init) };
}

/** A platform's answer in the shape the SDK reads. */
export function responseOf(status: number, headers: unknown, data: unknown): FetchResponseLike {
  const text = bodyText(data);
  return {
    status,
    headers: headersOf(headers),
    text: async () => text,
    json: async () => JSON.parse(text),
  };
}

/**
 * The error a platform's `fail` becomes. Named `TimeoutError` when the platform gave up waiting (the
 * SDK reports kind `'timeout'`), otherwise the call fails with kind `'network'` and this message.
 */
export function platformError(message: string, timedOut: boolean): Error {
  const error = new Error(message);
  error.name = timedOut ? 'TimeoutError' : 'MiniProgramRequestError';
  return error;
}

/**
 * Sends one platform request and settles with its outcome. `start` calls the platform with the two
 * callbacks; an abort of `signal` calls the task's `abort()` (the SDK has already rejected the call by
 * then, so the platform's own `fail` that follows is ignored).
 */
export function platformCall(
  signal: AbortSignal | undefined,
  start: (
    resolve: (response: FetchResponseLike) => void,
    reject: (error: Error) => void,
  ) => PlatformTask | undefined,
): Promise<FetchResponseLike> {
  return new Promise((resolve, reject) => {
    let onAbort: (() => void) | undefined;
    let settled = false;
    const settle =
      <T>(done: (value: T) => void) =>
      (value: T) => {
        settled = true;
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        done(value);
      };
    const task = start(settle(resolve), settle(reject));
    // a platform may answer before returning its task: then there is nothing left to abort
    if (!signal || !task || settled) return;
    onAbort = () => task.abort();
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
