import { AppError, contractSchemaMap } from '@readlib/contracts';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, preValidationHookHandler } from 'fastify';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What schema validation lets through and the database cannot take (tests/reliability sends it):
 * AJV coerces "Infinity" and "1e309" to Infinity and then skips `maximum`, so `page=Infinity` would
 * reach the OFFSET clause; numbers past 2^53 lose their value; and PostgreSQL refuses a NUL character in
 * text ("invalid byte sequence"), which turned `keyword=a%00b` into a 500; a lone surrogate reached
 * SQLite as invalid UTF-8 and came back as three replacement characters. Each is a client error.
 */
export function inputProblem(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return named(path, 'NUL characters are not accepted');
    // JSON's \ud800 escapes decode to half a character, which neither UTF-8 column stores as sent
    return LONE_SURROGATE.test(value)
      ? named(path, 'text must be valid Unicode (a lone surrogate was sent)')
      : undefined;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER
      ? undefined
      : named(path, 'numbers must be finite and at most 2^53');
  }
  if (value === null || typeof value !== 'object' || depth > 8) return undefined;
  const array = Array.isArray(value);
  // runs on every request's query: no closure made per call (tsx names each one as it is made, which
  // cost more than the checks themselves in a CPU profile of shelf/get) and no array of entries
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const problem = inputProblem(
      (value as Record<string, unknown>)[k],
      array ? `${path}[${k}]` : path ? `${path}.${k}` : k,
      depth + 1,
    );
    if (problem) return problem;
  }
  return undefined;
}

function named(path: string, problem: string): string {
  return path ? `${path}: ${problem}` : problem;
}

/** After validation (coercion done), before the handler: refuse the inputs above as invalid (400). */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preHandler', (req, _reply, done) => {
    const problem = inputProblem(req.query) ?? inputProblem(req.body) ?? inputProblem(req.params);
    done(problem ? new AppError('invalid', `invalid parameter: ${problem}`) : undefined);
  });
}

/** The JSON types a property's schema takes: its `type`, or its union's. */
function typesOf(schema: TSchema): string[] {
  const own = schema.type === undefined ? [] : [schema.type].flat();
  return [...own, ...((schema.anyOf ?? schema.oneOf ?? []) as TSchema[]).flatMap(typesOf)];
}

/** The body fields that take no boolean, each with the types it takes (for the message). */
function fieldsTakingNoBoolean(body: TSchema | undefined): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [name, schema] of Object.entries((body?.properties ?? {}) as Record<string, TSchema>)) {
    const types = typesOf(schema);
    if (types.length > 0 && !types.includes('boolean')) fields.set(name, types.join(' or '));
  }
  return fields;
}

/** `body/<field> must be <types>, not <value>` for the first boolean sent to a field that takes none. */
function booleanProblem(body: unknown, fields: Map<string, string>): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  for (const [name, types] of fields) {
    const value = (body as Record<string, unknown>)[name];
    if (typeof value === 'boolean') return `body/${name} must be ${types}, not ${value}`;
  }
  return undefined;
}

/**
 * AJV coerces body types as it coerces the query's (URL-encoded forms send every value as a string):
 * a JSON `true` sent for a category was taken as category 1, and `false` as the title "false". No field
 * of a contract body takes a boolean, so a boolean sent to one is refused (400) before that coercion,
 * naming the field; numbers and numeric strings are still coerced as forms and the original clients
 * need. Only routes with a body get the hook.
 */
export function installBodyBooleanGuard(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const ref = (route.schema?.body as { $ref?: string } | undefined)?.$ref;
    const fields = fieldsTakingNoBoolean(
      ref ? (contractSchemaMap as Record<string, TSchema>)[ref] : undefined,
    );
    if (fields.size === 0) return;
    const guard: preValidationHookHandler = (req, _reply, done) => {
      const problem = booleanProblem(req.body, fields);
      done(problem ? new AppError('invalid', `invalid parameter: ${problem}`) : undefined);
    };
    route.preValidation = [route.preValidation ?? []].flat().concat(guard);
  });
}
