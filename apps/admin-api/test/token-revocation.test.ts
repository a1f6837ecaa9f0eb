import { createHmac } from 'node:crypto';
import { changeOperatorPassword } from '@readlib/catalog';
import { testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, JWT_SECRET, login, OPERATOR } from './helpers.js';

const dialects = await testDialects();

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A token signed with the service's secret, as a build before token versions issued them (no `ver`). */
function legacyToken(sub: string): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub, username: OPERATOR.username, iat: Math.floor(Date.now() / 1000) })}`;
  return `${head}.${createHmac('sha256', JWT_SECRET).update(head).digest('base64url')}`;
}

// decisions.md §4 Auth: a missing, invalid or expired token is 401 with code -2. A password reset
// (`pnpm cli operator:password`) refuses the tokens issued before it the same way, at once.
describe.each(dialects)('tokens after a password reset on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  const info = (token: string) =>
    t.app.inject({ method: 'GET', url: '/user/info', headers: { authorization: `Bearer ${token}` } });

  it('refuses every token issued before the reset, and the old password; the new one logs in', async () => {
    const first = await login(t.app);
    const second = await login(t.app, OPERATOR, '10.0.0.2');
    expect((await info(first)).statusCode).toBe(200);
    await changeOperatorPassword(t.h.db, OPERATOR.username, 'a brand new password');
    for (const token of [first, second]) {
      const res = await info(token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: -2, msg: 'token revoked' });
    }
    const books = await t.app.inject({
      method: 'GET',
      url: '/book/list',
      headers: { authorization: `Bearer ${first}` },
    });
    expect(books.statusCode).toBe(401);
    await expect(login(t.app, OPERATOR, '10.0.0.3')).rejects.toThrow(/login failed/);
    const fresh = await login(t.app, { username: OPERATOR.username, password: 'a brand new password' });
    expect((await info(fresh)).json()).toMatchObject({ code: 0, data: { username: OPERATOR.username } });
  });

  it("POST /user/logout refuses the token and the operator's other tokens; the password logs in again", async () => {
    const first = await login(t.app);
    const second = await login(t.app, OPERATOR, '10.0.0.2');
    const logout = (token: string) =>
      t.app.inject({ method: 'POST', url: '/user/logout', headers: { authorization: `Bearer ${token}` } });
    const out = await logout(first);
    expect([out.statusCode, out.json()]).toEqual([200, { code: 0, msg: 'success', data: null }]);
    for (const token of [first, second]) {
      const res = await info(token);
      expect([res.statusCode, res.json()]).toEqual([401, { code: -2, msg: 'token revoked' }]);
    }
    // the token is refused before the route: a logout again is a 401 like any other call
    expect((await logout(first)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/user/logout' })).json()).toMatchObject({ code: -2 });
    const fresh = await login(t.app, OPERATOR, '10.0.0.3');
    expect((await info(fresh)).json()).toMatchObject({ code: 0, data: { username: OPERATOR.username } });
  });

  it('accepts a token of an older build (no version) until the first reset', async () => {
    const { id } = await t.h.db
      .selectFrom('operators')
      .select('id')
      .where('username', '=', OPERATOR.username)
      .executeTakeFirstOrThrow();
    const old = legacyToken(String(id));
    expect((await info(old)).statusCode).toBe(200);
    await changeOperatorPassword(t.h.db, OPERATOR.username, 'another new password');
    expect((await info(old)).statusCode).toBe(401);
  });

  it('refuses the token of an operator that no longer exists', async () => {
    const token = await login(t.app);
    await t.h.db.deleteFrom('operators').where('username', '=', OPERATOR.username).execute();
    const res = await info(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(-2);
  });

  it('a reset checks its input: a short password, an unknown operator', async () => {
    await expect(changeOperatorPassword(t.h.db, OPERATOR.username, 'short')).rejects.toThrow(/at least 8/);
    await expect(changeOperatorPassword(t.h.db, 'nobody', 'long enough password')).rejects.toThrow(
      /no operator nobody/,
    );
    // nothing changed: the old password still logs in
    expect(await login(t.app)).toEqual(expect.any(String));
  });
});
