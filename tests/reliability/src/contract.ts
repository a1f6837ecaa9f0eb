import type { App } from '@readlib/http';
import { Ajv, type ValidateFunction } from 'ajv';

/** A JSON schema as found in /openapi.json (TypeBox output, refs as #/components/schemas/X). */
export type JsonSchema = Record<string, any>;

export interface Param {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One route as its contract describes it: parameters, body, and every declared response. */
export interface Operation {
  method: 'GET' | 'POST';
  path: string;
  query: Param[];
  /** application/json body schema, resolved */
  body?: JsonSchema;
  /** multipart upload route */
  multipart: boolean;
  /** declared statuses, each with a compiled validator of its body */
  responses: Map<number, ValidateFunction>;
  /** statuses answered with a document instead of JSON (the OPDS feeds), with its media types */
  documents: Map<number, string[]>;
  /** true when behind the admin token */
  authed: boolean;
}

export interface Contract {
  operations: Operation[];
  components: Record<string, JsonSchema>;
}

const COMPONENT = '#/components/schemas/';

/** Replaces every component reference by the schema itself (the contracts have no recursion in inputs). */
export function resolveRefs(schema: unknown, components: Record<string, JsonSchema>, depth = 0): any {
  if (depth > 20 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => resolveRefs(s, components, depth + 1));
  const s = schema as JsonSchema;
  if (typeof s.$ref === 'string' && s.$ref.startsWith(COMPONENT)) {
    return resolveRefs(components[s.$ref.slice(COMPONENT.length)], components, depth + 1);
  }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, resolveRefs(v, components, depth + 1)]));
}

/** Rewrites component references to plain ids so AJV resolves them against the added components. */
function toAjvRefs(schema: unknown): any {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(toAjvRefs);
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema as JsonSchema)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT))
      out.$ref = v.slice(COMPONENT.length);
    else if (k !== '$id') out[k] = toAjvRefs(v);
  }
  return out;
}

/** Reads /openapi.json of a running app (inject) and turns each operation into a testable contract. */
export async function loadContract(app: App): Promise<Contract> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json answered ${res.statusCode}`);
  const doc = res.json();
  const components: Record<string, JsonSchema> = doc.components?.schemas ?? {};
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  for (const [name, schema] of Object.entries(components)) ajv.addSchema(toAjvRefs(schema), name);
  const globalSecurity = Array.isArray(doc.security) && doc.security.length > 0;
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const responses = new Map<number, ValidateFunction>();
      const documents = new Map<number, string[]>();
      for (const [status, r] of Object.entries<any>(op.responses ?? {})) {
        const schema = r.content?.['application/json']?.schema ?? {};
        responses.set(Number(status), ajv.compile(toAjvRefs(schema)));
        const types = Object.keys(r.content ?? {}).filter((t) => t !== 'application/json');
        if (types.length > 0) documents.set(Number(status), types);
      }
      const content = op.requestBody?.content ?? {};
      operations.push({
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        query: (op.parameters ?? [])
          .filter((p: any) => p.in === 'query')
          .map((p: any) => ({
            name: p.name,
            required: !!p.required,
            schema: resolveRefs(p.schema, components),
          })),
        body: content['application/json']
          ? resolveRefs(content['application/json'].schema, components)
          : undefined,
        multipart: !!content['multipart/form-data'],
        responses,
        documents,
        authed: globalSecurity && !(Array.isArray(op.security) && op.security.length === 0),
      });
    }
  }
  return { operations, components };
}
