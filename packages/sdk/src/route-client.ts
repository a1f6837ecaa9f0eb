import type { BodyOf, QueryOf, ResultOf, RouteSpec } from '@readlib/contracts/routes';
import type { CallOptions, RequestSpec } from './transport.js';

/**
 * A client method of a route of the table: `(query, call?)` when the route takes a query (optional
 * when every field is), `(body, call?)` when it takes a body, `(call?)` otherwise; it resolves with
 * the envelope's `data` (nothing for an acknowledgement, the page for a paged list, the plain body of
 * a health route, the text of a document: the OPDS feeds).
 */
export type RouteMethod<S extends RouteSpec> =
  QueryOf<S> extends object
    ? InputMethod<QueryOf<S>, ResultOf<S>>
    : BodyOf<S> extends object
      ? InputMethod<BodyOf<S>, ResultOf<S>>
      : (call?: CallOptions) => Promise<Resolved<S>>;

type Resolved<S extends RouteSpec> = ResultOf<S> extends undefined ? void : ResultOf<S>;

type InputMethod<I, R> = object extends I
  ? (input?: I, call?: CallOptions) => Promise<R extends undefined ? void : R>
  : (input: I, call?: CallOptions) => Promise<R extends undefined ? void : R>;

/** One method per route of a table, named by its operationId. */
export type RouteMethods<T extends Record<string, RouteSpec>> = { [K in keyof T]: RouteMethod<T[K]> };

/** How a client sends one request: the reader's transport, or the admin's with its token and retry. */
export type SendRoute = (
  spec: RouteSpec,
  request: RequestSpec,
  call?: CallOptions,
) => Promise<Record<string, unknown>>;

/** The request of a route: its method and URL from the table, the caller's input as query or body. */
export function requestOf(spec: RouteSpec, input: object | undefined): RequestSpec {
  const request: RequestSpec = { method: spec.method, path: spec.url };
  if (spec.querystring) request.query = input;
  else if (spec.body) request.json = input;
  const reply = spec.reply;
  if ('plain' in reply) request.plain = { okStatuses: reply.unavailable ? [200, 503] : [200] };
  if ('document' in reply) request.document = { accept: reply.document.join(', ') };
  return request;
}

/** What a route's caller gets from the answer's body. */
export function resultOf(spec: RouteSpec, body: Record<string, unknown>): unknown {
  const reply = spec.reply;
  if ('plain' in reply) return body;
  if ('document' in reply) return body.document;
  if ('page' in reply) {
    const { data, page, pageSize, total } = body;
    return { data, page, pageSize, total };
  }
  return 'data' in reply ? body.data : undefined;
}

/** A method per route of `table`, each sending through `send`. */
export function routeMethods<T extends Record<string, RouteSpec>>(
  table: T,
  send: SendRoute,
): RouteMethods<T> {
  const methods: Record<string, unknown> = {};
  for (const [operationId, spec] of Object.entries(table)) {
    const takesInput = spec.querystring !== undefined || spec.body !== undefined;
    methods[operationId] = async (first?: unknown, second?: CallOptions) => {
      const input = takesInput ? (first as object | undefined) : undefined;
      const call = takesInput ? second : (first as CallOptions | undefined);
      return resultOf(spec, await send(spec, requestOf(spec, input), call));
    };
  }
  return methods as RouteMethods<T>;
}
