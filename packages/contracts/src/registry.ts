import { type Static, type TSchema, TypeGuard } from '@sinclair/typebox';
import * as adminBook from './admin-book.schema.js';
import * as adminBookBody from './admin-book-body.schema.js';
import * as adminUser from './admin-user.schema.js';
import * as book from './book.schema.js';
import * as bookQuery from './book-query.schema.js';
import * as contents from './contents.schema.js';
import * as envelope from './envelope.schema.js';
import * as health from './health.schema.js';
import * as home from './home.schema.js';
import * as opds from './opds.schema.js';
import * as screen from './screen.schema.js';
import * as search from './search.schema.js';
import * as shelf from './shelf.schema.js';
import * as user from './user.schema.js';

/**
 * Every `*.schema.ts` module. Each schema one of them exports is a contract schema, and its `$id` is
 * its export name (a test holds both), so a new schema is written once, in its module: the route
 * tables, the services' `$ref`s, the OpenAPI documents and the SDK find it by that name.
 */
const modules = {
  ...envelope,
  ...health,
  ...book,
  ...contents,
  ...home,
  ...search,
  ...user,
  ...bookQuery,
  ...shelf,
  ...opds,
  ...adminBook,
  ...adminBookBody,
  ...adminUser,
  ...screen,
};

type SchemasOf<M> = { readonly [K in keyof M as M[K] extends TSchema ? K : never]: M[K] };

/** Every `$ref` value anywhere inside a schema. */
export function refsOf(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) refsOf(item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsOf(value, found);
    }
  }
  return found;
}

/** Each schema placed after the schemas it references, so referenced schemas come first. */
function inReferenceOrder(schemas: TSchema[]): TSchema[] {
  const byId = new Map(schemas.map((s) => [s.$id as string, s]));
  const placed = new Set<string>();
  const out: TSchema[] = [];
  const place = (schema: TSchema) => {
    const id = schema.$id as string;
    if (placed.has(id)) return;
    placed.add(id);
    for (const target of refsOf(schema)) {
      const referenced = byId.get(target);
      if (referenced) place(referenced);
    }
    out.push(schema);
  };
  for (const schema of schemas) place(schema);
  return out;
}

/** Every contract schema by its `$id`. The route table names schemas by these keys. */
export const contractSchemaMap = Object.fromEntries(
  Object.entries(modules).filter(([, value]) => TypeGuard.IsSchema(value)),
) as SchemasOf<typeof modules>;

/** The static type of each contract schema, by its `$id`. */
export type ContractTypes = { [K in keyof typeof contractSchemaMap]: Static<(typeof contractSchemaMap)[K]> };

/**
 * Every contract schema, referenced schemas before their users: register them all with
 * `fastify.addSchema` (or pass them as references to `Value.Check`/`TypeCompiler.Compile`).
 */
export const contractSchemas: TSchema[] = inReferenceOrder(Object.values(contractSchemaMap));
