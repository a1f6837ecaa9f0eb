/** Reader API `error_code` values (decisions.md §2). 0 means success. */
export const ReaderCode = {
  OK: 0,
  FAILURE: -1,
  NOT_FOUND: 1,
  INVALID: 2,
  UPSTREAM: 3,
  UNREGISTERED: 4,
  RATE_LIMITED: 5,
} as const;
export type ReaderCode = (typeof ReaderCode)[keyof typeof ReaderCode];

/** Administration API `code` values (decisions.md §2). 0 means success. */
export const AdminCode = {
  OK: 0,
  FAILURE: -1,
  UNAUTHORIZED: -2,
} as const;
export type AdminCode = (typeof AdminCode)[keyof typeof AdminCode];

/** Every class of failure of decisions.md §2, in table order. */
export const errorKinds = [
  'failure',
  'invalid',
  'not_found',
  'unregistered',
  'unauthorized',
  'login_refused',
  'conflict',
  'too_large',
  'unsupported_media',
  'unsafe_archive',
  'rate_limited',
  'upstream',
  'unavailable',
  'internal',
] as const;
export type ErrorKind = (typeof errorKinds)[number];

/** HTTP status and envelope codes of one class of failure; `null` where the table says n/a. */
export interface ErrorCatalogueEntry {
  readonly http: number;
  readonly reader: ReaderCode | null;
  readonly admin: AdminCode | null;
}

/** The error table of decisions.md §2, row by row, with one row added (`unavailable`, see README). */
export const errorCatalogue: Readonly<Record<ErrorKind, ErrorCatalogueEntry>> = Object.freeze({
  failure: { http: 400, reader: ReaderCode.FAILURE, admin: AdminCode.FAILURE },
  invalid: { http: 400, reader: ReaderCode.INVALID, admin: AdminCode.FAILURE },
  not_found: { http: 404, reader: ReaderCode.NOT_FOUND, admin: AdminCode.FAILURE },
  unregistered: { http: 404, reader: ReaderCode.UNREGISTERED, admin: null },
  unauthorized: { http: 401, reader: null, admin: AdminCode.UNAUTHORIZED },
  login_refused: { http: 401, reader: null, admin: AdminCode.FAILURE },
  conflict: { http: 409, reader: ReaderCode.FAILURE, admin: AdminCode.FAILURE },
  too_large: { http: 413, reader: null, admin: AdminCode.FAILURE },
  unsupported_media: { http: 415, reader: null, admin: AdminCode.FAILURE },
  unsafe_archive: { http: 422, reader: null, admin: AdminCode.FAILURE },
  rate_limited: { http: 429, reader: ReaderCode.RATE_LIMITED, admin: AdminCode.FAILURE },
  upstream: { http: 502, reader: ReaderCode.UPSTREAM, admin: null },
  // not in decisions.md §2: a database lock or outage is worth a retry (docs/errors.md); -1 as before
  unavailable: { http: 503, reader: ReaderCode.FAILURE, admin: AdminCode.FAILURE },
  internal: { http: 500, reader: ReaderCode.FAILURE, admin: AdminCode.FAILURE },
});

/** Success status of both families. */
export const SUCCESS_HTTP_STATUS = 200;
