/**
 * Whether a database error means "not now" rather than "this request is wrong": the SQLite file stayed
 * locked past busy_timeout, or PostgreSQL cannot be reached, is shutting down, has no connection slot
 * left, did not answer within the connect or statement timeout, or gave up on a lock, a deadlock or a
 * serialisation conflict. Such a request can succeed when retried, so the services answer 503 with
 * Retry-After instead of an internal error (docs/errors.md).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && isUnavailableCode(code)) return true;
  // net.connect to a name with several addresses (localhost: ::1 and 127.0.0.1) fails with all of them
  if (Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable)) return true;
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((m) => message.startsWith(m));
}

const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)(_|$)/;
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs (PostgreSQL appendix A): 57P01-57P03 shutting down or starting up, 53300 too many
 * connections, 55P03 lock_timeout, 57014 statement_timeout (the services never cancel a query
 * otherwise), 40001 serialization failure, 40P01 deadlock.
 */
const PG_RETRYABLE = new Set(['57P01', '57P02', '57P03', '53300', '55P03', '57014', '40001', '40P01']);
// node-postgres raises these without a code when the server goes away or the pool cannot connect in time
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error',
  // the client-side query_timeout: the server stopped answering on an open connection
  'Query read timeout',
];

function isUnavailableCode(code: string): boolean {
  // class 08: connection exception
  return (
    SQLITE_BUSY.test(code) || NETWORK.has(code) || PG_RETRYABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)
  );
}
