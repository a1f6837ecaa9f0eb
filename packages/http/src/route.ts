import {
  AdminAck,
  AdminEnvelope,
  AdminPage,
  type BodyOf,
  type QueryOf,
  ReaderAck,
  ReaderEnvelope,
  type ResultOf,
  type RouteSpec,
  type SchemaName,
  type SchemaRef,
} from '@readlib/contracts';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AdminBody, Family, ReaderBody } from './envelope.js';
import { errorResponses } from './responses.js';

/** Statuses every route can answer: validation (400), rate limit (429), internal (500), database busy (503). */
const COMMON = [400, 429, 500, 503];
/** ...and every admin route behind the token: 401 with code -2. */
const AUTHED = [...COMMON, 401];

const MEDIA = {
  json: undefined,
  'json-or-form': ['application/json', 'application/x-www-form-urlencoded'],
  multipart: ['multipart/form-data'],
} as const;

/** A `$ref` to a contract schema by its `$id` (what `ref()` writes). */
const refTo = (name: SchemaName): TSchema => Type.Unsafe({ $ref: name });

function schemaOf(r: SchemaRef): TSchema {
  return r.endsWith('[]') ? Type.Array(refTo(r.slice(0, -2) as SchemaName)) : refTo(r as SchemaName);
}

/** The error statuses a route of this family and access can answer, beside its own. */
function errorStatuses(family: Family, spec: RouteSpec): number[] {
  const common = family === 'admin' && spec.access !== 'public' ? AUTHED : COMMON;
  return [...common, ...(spec.errors ?? [])];
}

/** The Fastify schema of a route of the table: validation, serialisation and its OpenAPI operation. */
export function routeSchema(family: Family, operationId: string, spec: RouteSpec): Record<string, unknown> {
  const reply = spec.reply;
  let response: Record<number, TSchema>;
  if ('document' in reply) {
    // not JSON of the contracts: documented by media type; a revalidation may be answered 304
    const document = Object.fromEntries(reply.document.map((type) => [type, { schema: Type.String() }]));
    response = {
      200: Type.Unsafe({ description: 'The document', content: document }),
      304: Type.Null({ description: 'Not modified: the copy of If-None-Match or If-Modified-Since holds' }),
      ...errorResponses(family, errorStatuses(family, spec)),
    };
  } else if ('plain' in reply) {
    // while the service shuts down, every route answers 503 in the family's envelope (graceful-close.ts)
    const closing = refTo(family === 'reader' ? 'ReaderError' : 'AdminError');
    const plain = refTo(reply.plain);
    response = { 200: plain, 503: reply.unavailable ? Type.Union([plain, closing]) : closing };
  } else {
    const ok =
      'data' in reply
        ? (family === 'reader' ? ReaderEnvelope : AdminEnvelope)(schemaOf(reply.data))
        : 'page' in reply
          ? AdminPage(refTo(reply.page))
          : family === 'reader'
            ? ReaderAck()
            : AdminAck();
    response = { 200: ok, ...errorResponses(family, errorStatuses(family, spec)) };
  }
  const media = spec.body ? MEDIA[spec.media ?? 'json'] : undefined;
  return {
    operationId,
    tags: [...spec.tags],
    summary: spec.summary,
    ...(spec.access === 'public' ? { security: [] } : {}),
    ...(media ? { consumes: [...media] } : {}),
    ...(spec.querystring
      ? { querystring: typeof spec.querystring === 'string' ? refTo(spec.querystring) : spec.querystring }
      : {}),
    ...(spec.body ? { body: refTo(spec.body) } : {}),
    response,
  };
}

/** The body a handler answers with: the family's envelope around the route's result, or the plain body. */
export type Answer<S extends RouteSpec, F extends Family> = S['reply'] extends { document: unknown }
  ? string | Buffer
  : S['reply'] extends { plain: unknown }
    ? ResultOf<S>
    : S['reply'] extends { page: unknown }
      ? { code: number; msg: string } & ResultOf<S>
      : S['reply'] extends { ack: true }
        ? F extends 'reader'
          ? { error_code: number; msg: string }
          : { code: number; msg: string; data: null }
        : F extends 'reader'
          ? ReaderBody<ResultOf<S>>
          : AdminBody<ResultOf<S>>;

/** The request a route's handler gets: its query and body typed by the route table. */
export type RouteRequest<S extends RouteSpec> = FastifyRequest<{
  Querystring: QueryOf<S>;
  Body: BodyOf<S>;
}>;

export type RouteHandler<S extends RouteSpec, F extends Family> = (
  req: RouteRequest<S>,
  reply: FastifyReply,
) => Promise<Answer<S, F> | FastifyReply>;

/** A Fastify instance or plugin scope, whatever its type provider. */
// biome-ignore lint/suspicious/noExplicitAny: the scope's generics do not matter to `route`
type Routable = FastifyInstance<any, any, any, any, any>;

/** Server-side options of a route that the table does not say (hooks, rate-limit config). */
export type ServeOptions = Pick<RouteShorthandOptions, 'preValidation' | 'config'>;

/**
 * Registers the route `operationId` of a family's table on `app` (in its current plugin scope, so the
 * scope's hooks, e.g. the operator's token check, apply). What the route is comes from the table; the
 * handler says what it does.
 */
export function serve<F extends Family, T extends Record<string, RouteSpec>, K extends keyof T & string>(
  app: Routable,
  family: F,
  table: T,
  operationId: K,
  handler: RouteHandler<T[K], F>,
  options: ServeOptions = {},
): void {
  const spec = table[operationId]!;
  app.route({
    method: spec.method,
    url: spec.url,
    // a GET that writes gets no HEAD route: prefetchers and link checkers send HEAD on their own
    ...(spec.write ? { exposeHeadRoute: false } : {}),
    // a multipart body is a stream the handler reads, not a parsed object for the validator
    ...(spec.media === 'multipart' ? { validatorCompiler: () => () => true } : {}),
    schema: routeSchema(family, operationId, spec),
    ...options,
    handler: handler as never,
  });
}

/** `serve` bound to one family and its table: what the apps' route files call. */
export function servesOf<F extends Family, T extends Record<string, RouteSpec>>(family: F, table: T) {
  return <K extends keyof T & string>(
    app: Routable,
    operationId: K,
    handler: RouteHandler<T[K], F>,
    options?: ServeOptions,
  ) => serve(app, family, table, operationId, handler, options);
}
