import { describe, expect, it } from 'vitest';
import { AdminCode, type ErrorKind, errorCatalogue, errorKinds, ReaderCode } from '../src/index.js';

describe('decisions.md §2 error codes', () => {
  it('decisions.md §2: reader error_code values', () => {
    expect(ReaderCode).toEqual({
      OK: 0,
      FAILURE: -1,
      NOT_FOUND: 1,
      INVALID: 2,
      UPSTREAM: 3,
      UNREGISTERED: 4,
      RATE_LIMITED: 5,
    });
  });

  it('decisions.md §2: admin code values', () => {
    expect(AdminCode).toEqual({ OK: 0, FAILURE: -1, UNAUTHORIZED: -2 });
  });

  // [kind, HTTP, reader error_code, admin code], one line per row of the table (n/a = null).
  const table: [ErrorKind, number, number | null, number | null][] = [
    ['failure', 400, -1, -1],
    ['invalid', 400, 2, -1],
    ['not_found', 404, 1, -1],
    ['unregistered', 404, 4, null],
    ['unauthorized', 401, null, -2],
    ['login_refused', 401, null, -1],
    ['conflict', 409, -1, -1],
    ['too_large', 413, null, -1],
    ['unsupported_media', 415, null, -1],
    ['unsafe_archive', 422, null, -1],
    ['rate_limited', 429, 5, -1],
    ['upstream', 502, 3, null],
    // added to the table: docs/errors.md (database locked or unreachable, retry)
    ['unavailable', 503, -1, -1],
    ['internal', 500, -1, -1],
  ];

  it.each(table)('decisions.md §2 row %s: HTTP %i, reader %s, admin %s', (kind, http, reader, admin) => {
    expect(errorCatalogue[kind]).toEqual({ http, reader, admin });
  });

  it('decisions.md §2: the catalogue has exactly the rows of the table, in order', () => {
    expect(Object.keys(errorCatalogue)).toEqual(table.map(([kind]) => kind));
    expect([...errorKinds]).toEqual(table.map(([kind]) => kind));
  });

  it('decisions.md §2: every reader and admin code of the catalogue is a declared code', () => {
    const readerCodes: number[] = Object.values(ReaderCode);
    const adminCodes: number[] = Object.values(AdminCode);
    for (const entry of Object.values(errorCatalogue)) {
      if (entry.reader !== null) expect(readerCodes).toContain(entry.reader);
      if (entry.admin !== null) expect(adminCodes).toContain(entry.admin);
      expect(entry.reader).not.toBe(ReaderCode.OK);
      expect(entry.admin).not.toBe(AdminCode.OK);
    }
  });

  it('decisions.md §2: the catalogue cannot be changed at run time', () => {
    expect(Object.isFrozen(errorCatalogue)).toBe(true);
  });
});
