import { BookCreateBody } from '@readlib/contracts';

/**
 * The longest text each field of `POST /book/create` and `/book/update` takes, read from the contracts'
 * schema (`maxLength` of each string property) when the console is built or tested: the console puts
 * them in its bundle as `__BOOK_FIELD_LIMITS__` (vite.config.ts `define`) without carrying TypeBox or
 * the schemas, and hard-codes none of them.
 */
export function bookFieldLimits(properties: object = BookCreateBody.properties): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const [field, schema] of Object.entries(properties)) {
    const max = (schema as { type?: unknown; maxLength?: unknown }).maxLength;
    if ((schema as { type?: unknown }).type === 'string' && typeof max === 'number') limits[field] = max;
  }
  return limits;
}

/** The `define` entries of the console's build and tests. */
export const contractDefines = () => ({
  __BOOK_FIELD_LIMITS__: JSON.stringify(bookFieldLimits()),
});
