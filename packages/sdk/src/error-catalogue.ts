import type { ErrorCatalogueEntry, ErrorKind } from '@readlib/contracts';

/**
 * The error table of the contracts (`errorCatalogue`), as data the SDK carries at run time (the
 * contracts are imported as types only, so the bundle has no dependency). `satisfies` makes the
 * compiler refuse a missing or extra kind or a code outside the contracts' code sets;
 * test/error-catalogue.test.ts checks every value and the row order against `errorCatalogue`.
 */
const catalogue = {
  failure: { http: 400, reader: -1, admin: -1 },
  invalid: { http: 400, reader: 2, admin: -1 },
  not_found: { http: 404, reader: 1, admin: -1 },
  unregistered: { http: 404, reader: 4, admin: null },
  unauthorized: { http: 401, reader: null, admin: -2 },
  login_refused: { http: 401, reader: null, admin: -1 },
  conflict: { http: 409, reader: -1, admin: -1 },
  too_large: { http: 413, reader: null, admin: -1 },
  unsupported_media: { http: 415, reader: null, admin: -1 },
  unsafe_archive: { http: 422, reader: null, admin: -1 },
  rate_limited: { http: 429, reader: 5, admin: -1 },
  upstream: { http: 502, reader: 3, admin: null },
  unavailable: { http: 503, reader: -1, admin: -1 },
  internal: { http: 500, reader: -1, admin: -1 },
} as const satisfies Record<ErrorKind, ErrorCatalogueEntry>;

export const sdkErrorCatalogue: Readonly<Record<ErrorKind, ErrorCatalogueEntry>> = catalogue;

/** Which API answered: the reader envelope carries `error_code`, the admin envelope `code`. */
export type ApiFamily = 'reader' | 'admin';

/**
 * Statuses the services send outside the table (docs/errors.md; packages/http `clientErrors`), for a
 * request Node's parser refused before routing, with the envelope code of the kind they stand for:
 * 431 a header section over 16 KiB (`invalid`), 408 headers that never arrived (`failure`).
 */
const outsideTable: Readonly<Record<number, ErrorKind>> = { 431: 'invalid', 408: 'failure' };

/**
 * The failure class of an error response, from its HTTP status and envelope code. A class that has no
 * code in a family is answered with -1 there (packages/http `failure()`). Where two classes share status
 * and code (admin 400/-1: `failure` and `invalid`), the first row of the table wins. When no row
 * matches, 431 and 408 with their kind's code (see `outsideTable`) are that kind.
 */
export function errorKindOf(family: ApiFamily, status: number, code: number): ErrorKind | undefined {
  for (const [kind, entry] of Object.entries(sdkErrorCatalogue) as Array<[ErrorKind, ErrorCatalogueEntry]>) {
    if (entry.http === status && (entry[family] ?? -1) === code) return kind;
  }
  const kind = outsideTable[status];
  return kind !== undefined && (sdkErrorCatalogue[kind][family] ?? -1) === code ? kind : undefined;
}
