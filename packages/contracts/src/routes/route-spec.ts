import type { TObject } from '@sinclair/typebox';
import type { ContractTypes } from '../registry.js';

/** A contract schema by its `$id` (the route table names schemas; the services resolve the names). */
export type SchemaName = keyof ContractTypes;

/** A schema by name, or an array of it (`'BookSummary[]'`). */
export type SchemaRef = SchemaName | `${SchemaName}[]`;

/** What a route answers on success. */
export type Reply =
  /** the family's envelope with this `data` */
  | { readonly data: SchemaRef }
  /** the envelope without data (reader) or with `data: null` (admin): an acknowledgement */
  | { readonly ack: true }
  /** the admin paged list: `{code, msg, data: item[], page, pageSize, total}` */
  | { readonly page: SchemaName }
  /** outside the envelopes (health); `unavailable`: a 503 answers the same shape */
  | { readonly plain: SchemaName; readonly unavailable?: true }
  /**
   * a document that is not JSON of the contracts (the OPDS feeds for e-reader apps), of the first of
   * these media types; the route may answer 304 to a revalidation, and its errors are the envelope
   */
  | { readonly document: readonly string[] };

/** Media types of the bodies a route takes. */
export type BodyMedia = 'json' | 'json-or-form' | 'multipart';

/**
 * What one HTTP route is: read by the services (validation, serialisation, OpenAPI) and by the SDK
 * (its method of the same name). The key of a route in its table is its operationId.
 */
export interface RouteSpec {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly summary: string;
  readonly tags: readonly string[];
  /**
   * the query: a contract schema by name, or written here (`Type.Object(…)`) when only this route
   * takes it; either way the services validate it and the SDK's method takes its type
   */
  readonly querystring?: SchemaName | TObject;
  readonly body?: SchemaName;
  /** how the body is sent (default `json` when there is a body) */
  readonly media?: BodyMedia;
  readonly reply: Reply;
  /** error statuses beyond the ones every route of its family and access can answer */
  readonly errors?: readonly number[];
  /** admin routes need an operator's token unless public; reader routes are all public */
  readonly access?: 'public' | 'operator';
  /** a GET that changes something: no HEAD route, which prefetchers and link checkers send on their own */
  readonly write?: true;
}

/** A family's routes by operationId. */
export type RouteTable = Readonly<Record<string, RouteSpec>>;

type TypeOfRef<R> = R extends `${infer N extends SchemaName}[]`
  ? ContractTypes[N][]
  : R extends SchemaName
    ? ContractTypes[R]
    : never;

/** The query a route takes (`undefined` when it takes none). */
export type QueryOf<R extends RouteSpec> = R['querystring'] extends SchemaName
  ? ContractTypes[R['querystring']]
  : R['querystring'] extends TObject
    ? R['querystring']['static']
    : undefined;

/** The body a route takes (`undefined` when it takes none). */
export type BodyOf<R extends RouteSpec> = R['body'] extends SchemaName ? ContractTypes[R['body']] : undefined;

/**
 * What a successful call yields once unwrapped: the envelope's `data`, the page, the plain body, the
 * document's text.
 */
export type ResultOf<R extends RouteSpec> = R['reply'] extends { data: infer D }
  ? TypeOfRef<D>
  : R['reply'] extends { page: infer N extends SchemaName }
    ? { data: ContractTypes[N][]; page: number; pageSize: number; total: number }
    : R['reply'] extends { plain: infer N extends SchemaName }
      ? ContractTypes[N]
      : R['reply'] extends { document: readonly string[] }
        ? string
        : undefined;
