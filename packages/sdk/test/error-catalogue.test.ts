import { errorCatalogue, errorKinds } from '@readlib/contracts';
import { describe, expect, it } from 'vitest';
import { sdkErrorCatalogue } from '../src/error-catalogue.js';
import { ApiError, errorKindOf, isApiError } from '../src/index.js';

describe("the SDK's copy of the error catalogue", () => {
  it('equals the contracts catalogue, row for row and in table order', () => {
    expect(sdkErrorCatalogue).toEqual(errorCatalogue);
    expect(Object.keys(sdkErrorCatalogue)).toEqual([...errorKinds]);
  });

  it('maps status and code to a kind per family; a class without a code answers -1', () => {
    expect(errorKindOf('reader', 400, 2)).toBe('invalid');
    expect(errorKindOf('reader', 404, 4)).toBe('unregistered');
    expect(errorKindOf('reader', 413, -1)).toBe('too_large');
    expect(errorKindOf('admin', 401, -2)).toBe('unauthorized');
    expect(errorKindOf('admin', 401, -1)).toBe('login_refused');
    // admin 400 / -1 is both `failure` and `invalid` in decisions.md §2: the first row wins
    expect(errorKindOf('admin', 400, -1)).toBe('failure');
    expect(errorKindOf('admin', 502, -1)).toBe('upstream');
    expect(errorKindOf('reader', 418, 0)).toBeUndefined();
  });

  it("outside the table: 431 is invalid and 408 failure, with that kind's code in the family", () => {
    expect(errorKindOf('reader', 431, 2)).toBe('invalid');
    expect(errorKindOf('admin', 431, -1)).toBe('invalid');
    expect(errorKindOf('reader', 408, -1)).toBe('failure');
    expect(errorKindOf('admin', 408, -1)).toBe('failure');
    // another code is not what the services send: still no kind
    expect(errorKindOf('reader', 431, -1)).toBeUndefined();
    expect(errorKindOf('reader', 408, 2)).toBeUndefined();
    expect(errorKindOf('admin', 408, -2)).toBeUndefined();
  });

  it('status 0 says whether anything was sent', () => {
    const make = (kind: 'network' | 'timeout' | 'aborted' | 'invalid') =>
      new ApiError({ family: 'reader', status: 0, code: -1, msg: 'm', kind }).message;
    expect(['network', 'timeout', 'aborted', 'invalid'].map((k) => make(k as 'network'))).toEqual([
      'm (network error, network)',
      'm (no response, timeout)',
      'm (no response, aborted)',
      'm (not sent, invalid)',
    ]);
  });

  it('isApiError recognises errors from another copy of the SDK by shape', () => {
    const own = new ApiError({ family: 'admin', status: 401, code: -2, msg: 'no', kind: 'unauthorized' });
    const foreign = Object.assign(new Error('x'), { name: 'ApiError', kind: 'network' });
    expect([isApiError(own), isApiError(foreign), isApiError(new Error('x')), isApiError('x')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(own.message).toBe('no (HTTP 401, code -2, unauthorized)');
  });
});

describe('retry-after as seconds (RFC 9110 §10.2.3)', () => {
  it('a delay in seconds, an HTTP date from now, or nothing', async () => {
    const { retryAfterSeconds } = await import('../src/transport.js');
    const now = Date.UTC(2026, 10, 22, 12);
    expect(retryAfterSeconds('1', now)).toBe(1);
    expect(retryAfterSeconds(' 120 ', now)).toBe(120);
    expect(retryAfterSeconds(new Date(now + 30_500).toUTCString(), now)).toBe(30);
    expect(retryAfterSeconds(new Date(now - 60_000).toUTCString(), now)).toBe(0);
    for (const h of [null, '', 'soon', '-5']) expect(retryAfterSeconds(h, now)).toBeUndefined();
  });
});
