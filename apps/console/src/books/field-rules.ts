import type { TextField } from './book-form.state';

/**
 * The longest text each field of the book bodies takes: the contracts' schema, read when the console
 * is built (contract-limits.ts), so none is written here.
 */
export const FIELD_LIMITS: Readonly<Record<string, number>> = __BOOK_FIELD_LIMITS__;

export const maxLengthOf = (field: string): number | undefined => FIELD_LIMITS[field];

/**
 * A BCP 47-like language tag: a primary subtag of 2 to 8 letters, then subtags of 1 to 8 letters or
 * digits (`en`, `zh-CN`, `zh-Hans-CN`, `pt-BR`, `en-GB-oxendict`), within the contract's length limit
 * (the contract itself takes any text of that length). Empty is a book without a language.
 */
export const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/** A message key of book-form problems and its values. */
export interface FieldProblem {
  key: string;
  params?: Record<string, number>;
}

/**
 * A value longer than the field's limit (`field` as the API names it, e.g. `categoryText`), counted in
 * code points as the service's schema check counts them, spaces around it left out as the body leaves
 * them out.
 */
export function lengthProblem(field: string, value: string): FieldProblem | undefined {
  const max = maxLengthOf(field);
  if (max !== undefined && [...value.trim()].length > max) return { key: 'edit.tooLong', params: { max } };
  return undefined;
}

/**
 * What is wrong with a field's value, if anything. A value the book already had (`before`, the upload's
 * parsed one or the saved one) passes as it is: only what the operator types is held to the rules, so
 * an imported book whose language reads `English` can still be saved with another change.
 */
export function fieldProblem(field: TextField, value: string, before?: string): FieldProblem | undefined {
  const text = value.trim();
  if (field === 'title' && text === '') return { key: 'edit.titleRequired' };
  if (value === before) return undefined;
  const long = lengthProblem(field, text);
  if (long) return long;
  if (field === 'language' && text !== '' && !LANGUAGE_TAG.test(text)) return { key: 'edit.languageInvalid' };
  return undefined;
}
