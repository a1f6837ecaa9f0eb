import type { ErrorKind } from '@readlib/contracts';
import type { ApiFamily } from './error-catalogue.js';

/**
 * `ErrorKind` of the contracts' error catalogue (also 431 as `invalid` and 408 as `failure`, statuses the
 * services send outside the table), or one of the SDK's own kinds below. Status 0 means no HTTP response
 * was read; with kind `invalid` it means the SDK refused the call before sending anything (e.g. a query
 * value with a lone surrogate).
 */
export type ApiErrorKind =
  | ErrorKind
  /** no HTTP response arrived: connection refused or reset, DNS failure, the adapter's `fail` (status 0) */
  | 'network'
  /**
   * no complete answer (status, headers and body) within the call's `timeoutMs` or the client's
   * (status 0, code -1; `msg` says after how many milliseconds)
   */
  | 'timeout'
  /**
   * the caller's `signal` was aborted before or during the call (status 0, code -1; `cause` is the
   * signal's abort reason). Already aborted: nothing was sent.
   */
  | 'aborted'
  /** the status and code match no row (e.g. a proxy's own 504 page) */
  | 'unknown';

export interface ApiErrorInit {
  family: ApiFamily;
  /**
   * HTTP status; 0 when no response was read (kinds `network`, `timeout`, `aborted`, or `invalid` when
   * the SDK refused the call before sending it)
   */
  status: number;
  /** the envelope's `error_code` (reader) or `code` (admin); -1 when the body was not an envelope */
  code: number;
  msg: string;
  kind: ApiErrorKind;
  /** the `x-request-id` response header, to quote when reporting a problem */
  requestId?: string;
  /** seconds from the `retry-after` header (429 rate limited, 503 unavailable), when it sent one */
  retryAfter?: number;
  cause?: unknown;
}

/** Every failed call rejects with one of these. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly family: ApiFamily;
  readonly status: number;
  readonly code: number;
  readonly msg: string;
  readonly kind: ApiErrorKind;
  readonly requestId: string | undefined;
  /** seconds to wait before retrying, as the server asked (429, 503); undefined when it did not say */
  readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit) {
    const where =
      init.status !== 0
        ? `HTTP ${init.status}, code ${init.code}`
        : init.kind === 'invalid'
          ? 'not sent'
          : init.kind === 'network'
            ? 'network error'
            : 'no response';
    super(
      `${init.msg} (${where}, ${init.kind})`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.family = init.family;
    this.status = init.status;
    this.code = init.code;
    this.msg = init.msg;
    this.kind = init.kind;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

/** Type guard that also works across bundles (checks the shape, not only the prototype). */
export function isApiError(value: unknown): value is ApiError {
  return (
    value instanceof ApiError ||
    (value instanceof Error && value.name === 'ApiError' && typeof (value as ApiError).kind === 'string')
  );
}
