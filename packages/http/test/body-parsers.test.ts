import { testConfig } from '@readlib/config';
import { adminRoutes } from '@readlib/contracts/routes';
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, createBaseApp, errorResponses, type Family, routeSchema, success } from '../src/index.js';

let app: App | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A service of the family with a JSON route (`/echo`) and one taking JSON or a form (`/either`). */
async function appFor(family: Family): Promise<App> {
  const built = await createBaseApp({
    config: testConfig(),
    family,
    logger: false,
    openapi: { title: 't', version: '1', description: 'd' },
    ready: async () => true,
  });
  const body = Type.Object({ name: Type.String() });
  const reply = { 200: Type.Object({ name: Type.String() }), ...errorResponses(family, [400, 415]) };
  built.post('/echo', { schema: { body, response: reply } }, async (req) => req.body as { name: string });
  // the login's schema as the table makes it: JSON or a form
  const either = routeSchema(family, 'login', adminRoutes.login);
  built.post('/either', { schema: either }, async () => success(family, undefined));
  app = built;
  return built;
}

const post = (a: App, url: string, payload: string, contentType: string) =>
  a.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });

describe('request bodies: what is refused says why, in the envelope', () => {
  it('a JSON body is parsed as before', async () => {
    const res = await post(await appFor('reader'), '/echo', '{"name":"读者"}', 'application/json');
    expect([res.statusCode, res.json()]).toEqual([200, { name: '读者' }]);
  });

  it('JSON sent as text/plain is 415 naming what to send (reader error_code -1, admin code -1)', async () => {
    for (const family of ['reader', 'admin'] as const) {
      const res = await post(await appFor(family), '/echo', '{"name":"a"}', 'text/plain;charset=UTF-8');
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        [family === 'reader' ? 'error_code' : 'code']: -1,
        msg: 'content-type text/plain is not taken here: send application/json',
      });
      await app?.close();
    }
  });

  it('a route taking JSON or a form names both', async () => {
    const res = await post(await appFor('admin'), '/either', '<a/>', 'application/xml');
    expect([res.statusCode, res.json().msg]).toEqual([
      415,
      'content-type application/xml is not taken here: send application/json or application/x-www-form-urlencoded',
    ]);
  });

  it('a __proto__ or constructor.prototype key is refused as such, not as broken JSON', async () => {
    const a = await appFor('reader');
    for (const payload of [
      '{"name":"a","__proto__":{"x":1}}',
      '{"name":"a","constructor":{"prototype":{"x":1}}}',
    ]) {
      const res = await post(a, '/echo', payload, 'application/json');
      expect([res.statusCode, res.json()]).toEqual([
        400,
        {
          error_code: 2,
          msg: 'the body holds a "__proto__" or "constructor.prototype" key, which is refused',
        },
      ]);
    }
    expect(({} as { x?: unknown }).x).toBeUndefined();
  });

  it('broken JSON says where the parser stopped; an empty body says it is empty', async () => {
    const a = await appFor('admin');
    const broken = await post(a, '/echo', '{"name":', 'application/json');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({
      code: -1,
      msg: expect.stringMatching(/^the body is not valid JSON: .*JSON/),
    });
    const empty = await post(a, '/echo', '', 'application/json');
    expect([empty.statusCode, empty.json()]).toEqual([
      400,
      { code: -1, msg: 'the body is empty, with content-type application/json' },
    ]);
  });

  it('a POST taking no body answers an empty one sent as JSON (clients that set the content-type on every call)', async () => {
    const a = await appFor('admin');
    a.post('/plain', async () => success('admin', undefined));
    for (const payload of ['', '{}']) {
      const res = await post(a, '/plain', payload, 'application/json');
      expect([payload, res.statusCode, res.json()]).toEqual([payload, 200, { code: 0, msg: 'success' }]);
    }
  });
});
