import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorText } from '@readlib/config';
import type { ErrorKind } from '@readlib/contracts';
import { AppError } from '@readlib/contracts';
import { isDatabaseUnavailable } from '@readlib/data';
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerHookHandler,
} from 'fastify';
import { unsupportedMediaMessage } from './body-parsers.js';
import { type Family, failure } from './envelope.js';
import { noteRefusal } from './request-log.js';

const BY_STATUS: Record<number, ErrorKind> = {
  400: 'invalid',
  401: 'unauthorized',
  404: 'not_found',
  406: 'invalid',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media',
  422: 'unsafe_archive',
  429: 'rate_limited',
};

/** Seconds a client is asked to wait before retrying a request the database could not take. */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/** Anything thrown by a route, a hook or a plugin, as the kind of failure clients are told about. */
export function classify(err: FastifyError | AppError | Error): { kind: ErrorKind; msg: string } {
  if (err instanceof AppError) return { kind: err.kind, msg: err.message };
  if (isDatabaseUnavailable(err)) return { kind: 'unavailable', msg: 'service busy, retry shortly' };
  const fe = err as FastifyError;
  if (fe.validation) return { kind: 'invalid', msg: `invalid parameter: ${fe.message}` };
  const status = fe.statusCode ?? 500;
  if (status >= 500) return { kind: 'internal', msg: 'internal error' };
  return { kind: BY_STATUS[status] ?? 'failure', msg: fe.message || 'request failed' };
}

/**
 * Errors Fastify raises before routing (a path that is not valid percent-encoding / UTF-8, e.g.
 * `/res/%c0%ae%c0%ae/`) bypass the error handler, and would answer Fastify's own
 * `{error, code, message, statusCode}` (tests/reliability sends them). Passed as the `frameworkErrors` option: the same envelope.
 */
export function frameworkErrors(family: Family) {
  return (_err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
    const { status, body } = failure(family, 'invalid', 'invalid URL: not valid percent-encoded UTF-8');
    void reply.code(status).send(body);
  };
}

/**
 * Requests Node's parser refuses before Fastify sees them (a header section over 16 KiB, a malformed
 * request line or Content-Length, a client too slow to send its headers) would get Fastify's own
 * `{error, message, statusCode}`. Passed as `clientErrorHandler`: the same statuses, in the family's
 * envelope, and the connection is closed.
 */
export function clientErrors(family: Family) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, kind, msg] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? ([431, 'invalid', 'request header fields too large'] as const)
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ([408, 'failure', 'request timeout'] as const)
          : ([400, 'invalid', 'malformed HTTP request'] as const);
    const body = JSON.stringify(failure(family, kind, msg).body);
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    socket.destroy(err);
  };
}

/** One root error handler speaking the family's envelope (the not-found handler: installNotFound). */
export function installErrorHandling(app: FastifyInstance, family: Family): void {
  app.setErrorHandler((err, req, reply) => {
    // the client hung up while sending its request: Node's ECONNRESET is not the database's, and the
    // request's one line says where it closed (logClosedRequests); nobody reads this answer
    if (req.raw.errored === err)
      return reply.code(400).send(failure(family, 'invalid', 'request cut off').body);
    const classified = classify(err as Error);
    const { kind } = classified;
    // Fastify's message names neither the type sent nor the ones the route takes
    const msg =
      (err as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? unsupportedMediaMessage(req)
        : classified.msg;
    // internals go to the log with the request id, never to the client
    if (kind === 'internal') req.log.error({ err }, 'request failed');
    // the operator needs to know the database is locked or away; the client only that it may retry.
    // The driver's message and code say which; its stack (node_modules frames) says nothing more, and
    // an outage writes one such line per request
    else if (kind === 'unavailable') req.log.warn(unavailableFields(err), 'database unavailable');
    // a refusal is said on the request's one line (request-log.ts)
    else noteRefusal(req, kind, msg);
    const { status, body } = failure(family, kind, msg);
    if (kind === 'rate_limited' && (err as FastifyError & { retryAfter?: number }).retryAfter) {
      reply.header('retry-after', String((err as { retryAfter?: number }).retryAfter));
    }
    if (kind === 'unavailable') reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
    return reply.code(status).send(body);
  });
}

/**
 * The warn line of a pooled connection lost while idle: its code and message. pg-pool hangs the client
 * on the error (`err.client`: connection settings, prepared statements' SQL, the backend's cancel key),
 * which the error serialiser would write out in full, with a stack, once for every connection lost.
 */
export function logIdleConnectionLost(log: FastifyBaseLogger | undefined, err: unknown): void {
  log?.warn(unavailableFields(err), 'idle database connection lost');
}

/**
 * The fields of a warn line about work done beside a response (a search's log row): for a database
 * outage (or the connection cut at shutdown) its code and message, the 503 lines' form; any other
 * failure whole, with its stack.
 */
export function failureFields(err: unknown): { code?: string; error: string } | { err: unknown } {
  return isDatabaseUnavailable(err) ? unavailableFields(err) : { err };
}

/** What a warn line says of a known "database unavailable" error: its code and message, no stack. */
function unavailableFields(err: unknown): { code?: string; error: string } {
  const code = (err as { code?: unknown }).code;
  return { ...(typeof code === 'string' ? { code } : {}), error: errorText(err) };
}

/**
 * Unknown routes answer in the family's envelope, counted by the rate limit like any request (its
 * hook is route-level, so without `limit` a scan of made-up URLs was never limited).
 */
export function installNotFound(
  app: FastifyInstance,
  family: Family,
  limit?: preHandlerHookHandler,
  filesPrefix?: string,
): void {
  app.setNotFoundHandler(limit ? { preHandler: limit } : {}, (req, reply) => {
    const at = req.url.indexOf('?');
    const path = at === -1 ? req.url : req.url.slice(0, at);
    const location = withoutTrailingSlash(app, req.method, path);
    if (location !== undefined)
      return reply.redirect(`${location}${at === -1 ? '' : req.url.slice(at)}`, 308);
    const what =
      filesPrefix !== undefined && path.startsWith(filesPrefix)
        ? `file ${path}`
        : `route ${req.method} ${path}`;
    const { status, body } = failure(family, 'not_found', `${what} not found`);
    return reply.code(status).send(body);
  });
}

/**
 * A GET or HEAD of a route's path with a trailing slash (`/opds/`, as people type a catalogue's
 * address into an e-reader app): where to send the client with 308, relative to the address it asked
 * (`../opds`), so that behind a proxy serving the service under a path (`/library/opds/`) it stays
 * under that path, which the service does not know. The router itself matches exact paths only, which
 * keeps every other request's lookup as it is.
 */
function withoutTrailingSlash(app: FastifyInstance, method: string, path: string): string | undefined {
  if ((method !== 'GET' && method !== 'HEAD') || path.length < 2 || !path.endsWith('/')) return undefined;
  const route = path.slice(0, -1);
  if (!app.hasRoute({ method: 'GET', url: route })) return undefined;
  return `../${route.slice(route.lastIndexOf('/') + 1)}`;
}
