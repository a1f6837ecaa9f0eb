import { ApiError } from './api-error.js';
import { type ApiFamily, errorKindOf, sdkErrorCatalogue } from './error-catalogue.js';
import type {
  FetchInit,
  FetchLike,
  FetchResponseLike,
  QueryInput,
  Send,
  TransportOptions,
} from './transport.types.js';

export type * from './transport.types.js';

/** setTimeout's largest delay: a longer one fires at once in browsers and Node. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Throws a RangeError unless `value` is undefined or a usable timeout in milliseconds. */
export function checkTimeout(value: unknown, name: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_MS) {
    throw new RangeError(
      `${name} must be a positive finite number of milliseconds (at most ${MAX_TIMEOUT_MS}), got ${String(value)}`,
    );
  }
}

/**
 * The base URL without its trailing slashes; throws a TypeError unless it is an absolute http(s) URL
 * (`https://api.example.com`, `http://127.0.0.1:3000/prefix/`) or, for a page served by the API's own
 * origin, a path (`''`, `/api`), without query or fragment. A regular expression rather than
 * `new URL()`: some mini-program runtimes have no `URL`. Without this check a base like
 * `localhost:3000` would make every call fail as a network error.
 */
export function checkBaseUrl(value: unknown): string {
  if (typeof value !== 'string' || !/^(?:https?:\/\/[^\s/?#]+)?(?:\/(?!\/)[^\s?#]*)?$/i.test(value)) {
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL such as https://api.example.com, or a path of the page's own origin such as /api; got ${value === undefined ? 'undefined' : JSON.stringify(value)}`,
    );
  }
  return value.replace(/\/+$/, '');
}

/** The error's message, or failing that its code (Node's system errors) or its text. */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message) return error.message;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.name;
}

/**
 * What a failed exchange says: its message, followed by its root cause's when that adds something.
 * Node's `fetch` rejects with `TypeError: fetch failed` and keeps what happened in `cause` (`connect
 * ECONNREFUSED 127.0.0.1:3310`, `getaddrinfo ENOTFOUND host`; an AggregateError with an empty message
 * and one error per address when a name resolves to several).
 */
export function failureMessage(error: unknown): string {
  const message = messageOf(error);
  let root: unknown = error;
  for (let depth = 0; depth < 8 && root instanceof Error && root.cause !== undefined; depth++) {
    root = root.cause;
  }
  if (root === error) return message;
  const nested = (root as { errors?: unknown }).errors;
  const detail =
    root instanceof Error && !root.message && Array.isArray(nested) && nested.length > 0
      ? [...new Set(nested.map(messageOf))].join('; ')
      : messageOf(root);
  return detail && !message.includes(detail) ? `${message}: ${detail}` : message;
}

/**
 * Whether a string is well-formed UTF-16 (no lone surrogate), i.e. `encodeURIComponent` accepts it.
 * A loop rather than `String.prototype.isWellFormed` (ES2024) or a lookbehind regex: mini-program
 * runtimes may lack both.
 */
export function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = text.charCodeAt(i + 1); // NaN past the end
    if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

/** The name of the first query parameter whose name or value is not well-formed Unicode, if any. */
export function malformedQueryParameter(query: QueryInput | undefined): string | undefined {
  if (!query) return undefined;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    // a name with a lone surrogate is quoted with JSON escapes, so the message stays well-formed
    if (!isWellFormed(key)) return JSON.stringify(key);
    if (!isWellFormed(String(value))) return key;
  }
  return undefined;
}

/** `?a=1&b=x` with encodeURIComponent (no URLSearchParams: some mini-program runtimes lack it). */
export function queryString(query: QueryInput | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The global `fetch`, resolved per call and never called as a method: browsers refuse an unbound
 * `window.fetch`. (An upload whose progress is watched goes by `XMLHttpRequest`: the admin client's
 * `sendWith`, so a reader-only bundle carries none of it.)
 */
const defaultFetch: FetchLike = (url, init) => globalThis.fetch(url, init);

/** One attempt at the request, given the init of that attempt (its signal and timeout). */
type Attempt = (init: FetchInit) => Promise<FetchResponseLike>;

/** Sends one request and returns the success body (the whole envelope), or rejects with an ApiError. */
export function createTransport(family: ApiFamily, options: TransportOptions): Send {
  const base = checkBaseUrl(options.baseUrl);
  checkTimeout(options.timeoutMs, 'timeoutMs');
  const codeField = family === 'reader' ? 'error_code' : 'code';
  const doFetch: FetchLike = options.fetch ?? defaultFetch;

  /**
   * One request and its body; a failure of either is kind `network`, or `timeout` when the adapter's
   * platform gave up waiting (an error named `TimeoutError`).
   */
  const exchange = async (attempt: Attempt, init: FetchInit): Promise<[FetchResponseLike, string]> => {
    try {
      const res = await attempt(init);
      return [res, await res.text()];
    } catch (cause) {
      const message = failureMessage(cause);
      if (cause instanceof Error && cause.name === 'TimeoutError') {
        const msg = init.timeoutMs === undefined ? message : `no answer after ${init.timeoutMs} ms`;
        throw new ApiError({ family, status: 0, code: -1, msg, kind: 'timeout', cause });
      }
      throw new ApiError({ family, status: 0, code: -1, msg: message, kind: 'network', cause });
    }
  };
  const aborted = (cause: unknown) =>
    new ApiError({
      family,
      status: 0,
      code: -1,
      msg: 'the call was aborted by the caller',
      kind: 'aborted',
      cause,
    });

  /**
   * The exchange raced against the caller's signal and the timeout, so the call rejects on time even
   * when the fetch adapter ignores `init.signal`. A plain AbortController and setTimeout (mini-program
   * runtimes may lack AbortSignal.any/timeout, some lack AbortController: then nothing is cancelled,
   * the call still rejects); the timer and the listener are removed when the call settles.
   */
  const guarded = async (
    attempt: Attempt,
    init: FetchInit,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ): Promise<[FetchResponseLike, string]> => {
    if (signal?.aborted) throw aborted(signal.reason);
    const controller = typeof AbortController === 'function' ? new AbortController() : undefined;
    let stop!: (reason: ApiError) => void;
    let stopped: ApiError | undefined;
    // rejected at most once, by the timer or the signal; Promise.race below handles its rejection
    const interrupted = new Promise<never>((_, reject) => {
      stop = (reason) => {
        if (stopped) return;
        stopped = reason;
        reject(reason);
        controller?.abort(reason.cause ?? reason);
      };
    });
    const onAbort = () => stop(aborted(signal?.reason));
    signal?.addEventListener('abort', onAbort);
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            const msg = `no answer after ${timeoutMs} ms`;
            stop(new ApiError({ family, status: 0, code: -1, msg, kind: 'timeout' }));
          }, timeoutMs);
    try {
      const sent = exchange(attempt, {
        ...init,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(controller ? { signal: controller.signal } : {}),
      });
      // an exchange failing because of the abort reports the abort, whichever settles first
      return await Promise.race([sent.catch((err: unknown) => Promise.reject(stopped ?? err)), interrupted]);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };

  return async (spec, call) => {
    checkTimeout(call?.timeoutMs, 'call timeoutMs');
    const bad = malformedQueryParameter(spec.query);
    if (bad !== undefined) {
      const msg = `query parameter ${bad} is not valid Unicode (a lone surrogate)`;
      const code = sdkErrorCatalogue.invalid[family] ?? -1;
      throw new ApiError({ family, status: 0, code, msg, kind: 'invalid' });
    }
    const url = `${base}${spec.path}${queryString(spec.query)}`;
    const headers: Record<string, string> = {
      accept: spec.document?.accept ?? 'application/json',
      ...options.headers,
    };
    let body: string | FormData | undefined;
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.form !== undefined) {
      body = spec.form;
    }
    if (spec.token) headers.authorization = `Bearer ${spec.token}`;
    const progress = spec.progress;
    const init: FetchInit = {
      method: spec.method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(progress ? { onUploadProgress: progress.report } : {}),
    };
    const attempt: Attempt = (attemptInit) => (spec.sendWith ?? doFetch)(url, attemptInit);

    const signal = call?.signal;
    const timeoutMs = call?.timeoutMs ?? options.timeoutMs;
    // no controller, timer or listener unless the call asks for one
    const [res, text] =
      signal === undefined && timeoutMs === undefined
        ? await exchange(attempt, init)
        : await guarded(attempt, init, signal, timeoutMs);
    const requestId = res.headers.get('x-request-id') ?? undefined;
    // the whole body reached the service only when it accepted it
    if (res.status >= 200 && res.status < 300) progress?.finish();
    if (spec.document && res.status >= 200 && res.status < 300) return { document: text };
    const parsed = parseBody(text);

    if (spec.plain) {
      // health answers carry a string status; a framework's own error object does not
      if (spec.plain.okStatuses.includes(res.status) && isObject(parsed) && typeof parsed.status === 'string')
        return parsed;
    } else if (res.status >= 200 && res.status < 300 && isObject(parsed) && parsed[codeField] === 0) {
      const missing = spec.expects?.filter((field) => !(field in parsed)) ?? [];
      if (missing.length === 0) return parsed;
      const msg = `the answer says success but has no ${missing.join(', ')}`;
      throw new ApiError({ family, status: res.status, code: 0, msg, kind: 'unknown', requestId });
    }
    const enveloped = isObject(parsed) && typeof parsed[codeField] === 'number';
    const code = enveloped ? (parsed[codeField] as number) : -1;
    const msg =
      enveloped && typeof parsed.msg === 'string' ? parsed.msg : text.slice(0, 200) || `HTTP ${res.status}`;
    const kind = errorKindOf(family, res.status, code) ?? 'unknown';
    const retryAfter = retryAfterSeconds(res.headers.get('retry-after'));
    throw new ApiError({ family, status: res.status, code, msg, kind, requestId, retryAfter });
  };
}

/** `retry-after` as seconds: a delay in seconds, or an HTTP date (RFC 9110 §10.2.3); undefined otherwise. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  // an HTTP date ends in GMT; anything else Date.parse might read ("-5" is a year) is not one
  if (!value.endsWith('GMT')) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
