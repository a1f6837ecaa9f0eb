import { AppError } from '@readlib/contracts';

import type { FastifyInstance } from 'fastify';

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
