import { type ErrorKind, errorCatalogue } from '@readlib/contracts';

export type Family = 'reader' | 'admin';

export type ReaderBody<T> = { error_code: number; msg: string; data: T };
export type AdminBody<T> = { code: number; msg: string; data: T };

/** The success body of each family; `msg` is free text (spec §1). */
export function success<T = undefined>(family: 'reader', data?: T): ReaderBody<T>;
export function success<T = undefined>(family: 'admin', data?: T): AdminBody<T>;
export function success<T = undefined>(family: Family, data?: T): ReaderBody<T> | AdminBody<T>;
export function success<T>(family: Family, data?: T): Record<string, unknown> {
  const body: Record<string, unknown> =
    family === 'reader' ? { error_code: 0, msg: 'success' } : { code: 0, msg: 'success' };
  if (data !== undefined) body.data = data;
  return body;
}

/** HTTP status and envelope of a failure class; a class with no code in a family answers -1 there. */
export function failure(
  family: Family,
  kind: ErrorKind,
  msg: string,
): { status: number; body: Record<string, unknown> } {
  const entry = errorCatalogue[kind];
  const code = (family === 'reader' ? entry.reader : entry.admin) ?? -1;
  return { status: entry.http, body: family === 'reader' ? { error_code: code, msg } : { code, msg } };
}
