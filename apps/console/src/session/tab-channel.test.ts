import { describe, expect, it } from 'vitest';
import { hasExpired } from './tab-channel';

const b64url = (v: string) => Buffer.from(v).toString('base64url');
const token = (payload: object) => `${b64url('{"alg":"HS256"}')}.${b64url(JSON.stringify(payload))}.sig`;

describe('hasExpired: a token past its own expiry is not handed to a new tab', () => {
  const now = Date.UTC(2026, 10, 28, 12);
  it('past exp: expired; before exp: not', () => {
    expect(hasExpired(token({ exp: now / 1000 - 1 }), now)).toBe(true);
    expect(hasExpired(token({ exp: now / 1000 }), now)).toBe(true);
    expect(hasExpired(token({ exp: now / 1000 + 60 }), now)).toBe(false);
  });
  it('a payload with characters base64url spells differently from base64 is read', () => {
    // "~~~" and "???" encode to "-" and "_" in base64url
    expect(hasExpired(token({ exp: now / 1000 - 1, sub: '~~~???' }), now)).toBe(true);
  });
  it('without exp, or unreadable: left to the service to judge', () => {
    expect(hasExpired(token({ sub: '1' }), now)).toBe(false);
    expect(hasExpired('not a token', now)).toBe(false);
  });
});
