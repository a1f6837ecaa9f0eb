import { isApiError } from '@readlib/sdk';

/** What the console tells the operator about a failed call: message keys and the server's own words. */
export interface Explanation {
  /** the `errors.*` message key of the headline */
  key: string;
  /** the envelope's `msg`, when the service answered with one */
  serverMsg?: string;
  requestId?: string;
  /** the call was refused for a missing or expired token: the login page takes over */
  sessionEnded: boolean;
}

const HEADLINES = new Set([
  'unauthorized',
  'login_refused',
  'conflict',
  'unsafe_archive',
  'unsupported_media',
  'too_large',
  'not_found',
  'rate_limited',
  'unavailable',
  'network',
  'timeout',
]);

export function explain(error: unknown): Explanation {
  if (!isApiError(error)) return { key: 'errors.other', sessionEnded: false };
  const answered = error.status !== 0;
  return {
    key: `errors.${HEADLINES.has(error.kind) ? error.kind : 'other'}`,
    serverMsg: answered && error.msg ? error.msg : undefined,
    requestId: error.requestId,
    sessionEnded: error.kind === 'unauthorized',
  };
}
