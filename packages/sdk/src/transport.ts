import { ApiError } from './api-error.js';
import { type ApiFamily, errorKindOf } from './error-catalogue.js';

/** What the SDK passes to `fetch`: enough for browsers, Node 20 and mini-program request adapters. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

/** The part of a fetch `Response` the SDK reads. */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
  text(): Promise<string>;
}

/** A fetch-like function: the global `fetch`, or an adapter over a mini-program's request API. */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;

/** A query object: undefined values are left out, everything else is sent as its string form. */
export type QueryInput = object;

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  query?: QueryInput;
  /** sent as application/json */
  json?: object;
  /** sent as multipart/form-data (the fetch implementation writes the boundary) */
  form?: FormData;
  token?: string;
  /** health endpoints answer outside the envelopes */
  plain?: { okStatuses: readonly number[] };
}

export interface TransportOptions {
  baseUrl: string;
  fetch?: FetchLike;
  /** extra headers sent with every request */
  headers?: Record<string, string>;
}

export type Send = (spec: RequestSpec) => Promise<Record<string, unknown>>;

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

/** Sends one request and returns the success body (the whole envelope), or rejects with an ApiError. */
export function createTransport(family: ApiFamily, options: TransportOptions): Send {
  const base = options.baseUrl.replace(/\/+$/, '');
  const codeField = family === 'reader' ? 'error_code' : 'code';
  // resolved per call and never called as a method: browsers refuse an unbound `window.fetch`
  const doFetch: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));

  return async (spec) => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    let body: string | FormData | undefined;
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.form !== undefined) {
      body = spec.form;
    }
    if (spec.token) headers.authorization = `Bearer ${spec.token}`;

    let res: FetchResponseLike;
    let text: string;
    try {
      res = await doFetch(`${base}${spec.path}${queryString(spec.query)}`, {
        method: spec.method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      text = await res.text();
    } catch (cause) {
      const msg = cause instanceof Error ? cause.message : String(cause);
      throw new ApiError({ family, status: 0, code: -1, msg, kind: 'network', cause });
    }
    const requestId = res.headers.get('x-request-id') ?? undefined;
    const parsed = parseBody(text);

    if (spec.plain) {
      if (spec.plain.okStatuses.includes(res.status) && isObject(parsed)) return parsed;
    } else if (res.status >= 200 && res.status < 300 && isObject(parsed) && parsed[codeField] === 0) {
      return parsed;
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
