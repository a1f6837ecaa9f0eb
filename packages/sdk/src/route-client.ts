import type { BodyOf, QueryOf, Reply, ResultOf, RouteSpec } from '@readlib/contracts/routes';
import type { CallOptions, RequestSpec } from './transport.js';

/**
 * A client method of a route of the table: `(query, call?)` when the route takes a query (optional
 * when every field is), `(body, call?)` when it takes a body, `(call?)` otherwise; it resolves with
 * the envelope's `data` (nothing for an acknowledgement, the page for a paged list, the plain body of
 * a health route, the text of a document: the OPDS feeds). `N`: the route's input and result by the
 * contracts' names (src/route-calls.generated.ts), which stand for the types computed from the table.
 */
export type RouteMethod<S extends RouteSpec, N extends NamedTypes = NamedTypes> =
  QueryOf<S> extends object
    ? InputMethod<Named<N, 'input', QueryOf<S>>, Named<N, 'result', ResultOf<S>>>
    : BodyOf<S> extends object
      ? InputMethod<Named<N, 'input', BodyOf<S>>, Named<N, 'result', ResultOf<S>>>
      : (call?: CallOptions) => Promise<Resolved<Named<N, 'result', ResultOf<S>>>>;

/** A route's types by name, where the contracts name them. */
export interface NamedTypes {
  input?: unknown;
  result?: unknown;
}

type Named<N extends NamedTypes, K extends keyof NamedTypes, Computed> = N extends { [P in K]: infer T }
  ? T
  : Computed;

type Resolved<R> = R extends undefined ? void : R;

type InputMethod<I, R> = object extends I
  ? (input?: Loose<I>, call?: CallOptions) => Promise<R extends undefined ? void : R>
  : (input: Loose<I>, call?: CallOptions) => Promise<R extends undefined ? void : R>;

/**
 * A route's input as a caller writes it: each optional property also takes `undefined` (so `value ??
 * undefined` compiles under `exactOptionalPropertyTypes`); the SDK leaves undefined values out of the
 * query string and the JSON body.
 */
export type Loose<T> = { [K in keyof T]: object extends Pick<T, K> ? T[K] | undefined : T[K] };

/**
 * One method per route of a table, named by its operationId. Mapped over the generated names (`N`),
 * whose members carry each route's method, path and summary as doc comments: an editor's hover on a
 * method shows them.
 */
export type RouteMethods<T extends Record<string, RouteSpec>, N extends { [K in keyof T]: NamedTypes }> = {
  [K in keyof N]: RouteMethod<T[K & keyof T], N[K]>;
};

/**
 * What a client needs of a route of the contracts' table, without its schemas (which would bring
 * TypeBox into the SDK): `src/route-calls.generated.ts` holds one per route, written from the table.
 */
export interface RouteCall {
  readonly method: RouteSpec['method'];
  readonly url: string;
  /** how the caller's input is sent: the route's query, or its body */
  readonly input?: 'query' | 'body';
  readonly access?: RouteSpec['access'];
  readonly reply: Reply;
}

/** The calls of a table's routes by operationId. */
export type RouteCalls = Readonly<Record<string, RouteCall>>;

/** How a client sends one request: the reader's transport, or the admin's with its token and retry. */
export type SendRoute = (
  route: RouteCall,
  request: RequestSpec,
  call?: CallOptions,
) => Promise<Record<string, unknown>>;

/** The request of a route: its method and URL from the table, the caller's input as query or body. */
export function requestOf(route: RouteCall, input: object | undefined): RequestSpec {
  const request: RequestSpec = { method: route.method, path: route.url };
  if (route.input === 'query') request.query = input;
  else if (route.input === 'body') request.json = input;
  const reply = route.reply;
  if ('plain' in reply) request.plain = { okStatuses: reply.unavailable ? [200, 503] : [200] };
  if ('document' in reply) request.document = { accept: reply.document.join(', ') };
  const expects = expectedFields(reply);
  if (expects) request.expects = expects;
  return request;
}

const DATA = ['data'] as const;
const PAGE = ['data', 'page', 'pageSize', 'total'] as const;

/** The fields a success answer of a route with this reply carries; undefined when it may have none. */
function expectedFields(reply: Reply): readonly string[] | undefined {
  return 'data' in reply ? DATA : 'page' in reply ? PAGE : undefined;
}

/** What a route's caller gets from the answer's body. */
export function resultOf(route: RouteCall, body: Record<string, unknown>): unknown {
  const reply = route.reply;
  if ('plain' in reply) return body;
  if ('document' in reply) return body.document;
  if ('page' in reply) {
    const { data, page, pageSize, total } = body;
    return { data, page, pageSize, total };
  }
  return 'data' in reply ? body.data : undefined;
}

/** A method per route of the table `T` (typed by it), each sending its call through `send`. */
export function routeMethods<T extends Record<string, RouteSpec>, N extends { [K in keyof T]: NamedTypes }>(
  calls: { readonly [K in keyof T]: RouteCall },
  send: SendRoute,
): RouteMethods<T, N> {
  const methods: Record<string, unknown> = {};
  for (const [operationId, route] of Object.entries<RouteCall>(calls)) {
    const takesInput = route.input !== undefined;
    methods[operationId] = async (first?: unknown, second?: CallOptions) => {
      const input = takesInput ? (first as object | undefined) : undefined;
      const call = takesInput ? second : (first as CallOptions | undefined);
      return resultOf(route, await send(route, requestOf(route, input), call));
    };
  }
  return methods as RouteMethods<T, N>;
}
