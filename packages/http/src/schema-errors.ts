import type { FastifySchemaValidationError } from 'fastify';

/**
 * Fastify's validation message (`body/page must be integer, …`), except that a value no branch of a
 * union takes is one clause naming what each branch asks: `body/category must be integer or match
 * pattern "^[0-9]+$"`, where AJV reports each failed branch and then `must match a schema in anyOf`.
 */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const inBranch = (e: FastifySchemaValidationError) =>
    unions.some((u) => u !== e && e.schemaPath.startsWith(`${u.schemaPath}/`));
  const clauses = errors
    .filter((e) => !inBranch(e))
    .map((e) => {
      const branches = unions.includes(e)
        ? errors.filter((b) => b.schemaPath.startsWith(`${e.schemaPath}/`))
        : [];
      const message = branches.length > 0 ? eitherOf(branches) : e.message;
      return `${dataVar}${e.instancePath} ${message}`;
    });
  return new Error(clauses.join(', '));
}

/** `must be integer or match pattern "^[0-9]+$"` from each branch's `must …`; a literal by its value. */
function eitherOf(branches: FastifySchemaValidationError[]): string {
  const ask = (b: FastifySchemaValidationError) =>
    b.keyword === 'const'
      ? `be ${JSON.stringify(b.params.allowedValue)}`
      : (b.message ?? '').replace(/^must /, '');
  return `must ${[...new Set(branches.map(ask))].join(' or ')}`;
}
