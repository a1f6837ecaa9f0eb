import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { testConfig } from '@readlib/config';
import { AppError, BookSummary, ReaderEnvelope, ref } from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createBaseApp, errorResponses, type Family, success } from '../src/index.js';

async function appFor(family: Family, ready = true) {
  const app = await createBaseApp({
    config: testConfig({ RATE_LIMIT_PER_MINUTE: '3' }),
    family,
    logger: false,
    openapi: { title: 't', version: '1', description: 'd' },
    ready: async () => ready,
  });
  app.get(
    '/thing',
    {
      schema: {
        operationId: 'thing',
        querystring: Type.Object({ n: Type.Integer({ minimum: 1 }) }),
        response: {
          200: ReaderEnvelope(Type.Array(ref(BookSummary))),
          ...errorResponses(family, [400, 404, 500]),
        },
      },
    },
    async (req) => {
      if (req.query.n === 2) throw new AppError('not_found', 'book not found');
      if (req.query.n === 3) throw new Error('SELECT secret FROM boom');
      // both families answer the reader shape here: this route exists to exercise the error paths
      return success('reader', []);
    },
  );
  return app;
}

describe('decisions.md §2: every error in the envelope of its family', () => {
  it('reader: validation failure is HTTP 400 with error_code 2', async () => {
    const app = await appFor('reader');
    const res = await app.inject('/thing?n=zero');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 2 });
  });

  it('a refusal names the field as Fastify does; a union that takes no branch is one clause', async () => {
    // three requests: the app's rate limit
    const app = await appFor('admin');
    app.get(
      '/pick',
      {
        schema: {
          querystring: Type.Object({
            n: Type.Integer({ minimum: 1 }),
            size: Type.Optional(Type.Union([Type.Literal('small'), Type.Integer({ maximum: 9 })])),
          }),
        },
      },
      async () => ({ code: 0 }),
    );
    const msg = async (query: string) => (await app.inject(`/pick?${query}`)).json().msg;
    expect(await msg('n=0')).toBe('invalid parameter: querystring/n must be >= 1');
    expect(await msg('n=1&size=12')).toBe('invalid parameter: querystring/size must be "small" or be <= 9');
    expect(await msg('n=1&size=small')).toBe(undefined);
    await app.close();
  });

  it('reader: a service not-found is HTTP 404 with error_code 1; an unknown route too', async () => {
    const app = await appFor('reader');
    expect((await app.inject('/thing?n=2')).json()).toEqual({ error_code: 1, msg: 'book not found' });
    const unknown = await app.inject('/nowhere');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error_code: 1 });
  });

  it('internal errors are HTTP 500, code -1, with no SQL or stack in the body', async () => {
    for (const family of ['reader', 'admin'] as const) {
      const app = await appFor(family);
      const res = await app.inject('/thing?n=3');
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toMatch(/SELECT|stack|at /);
      expect(res.json()).toEqual(
        family === 'reader' ? { error_code: -1, msg: 'internal error' } : { code: -1, msg: 'internal error' },
      );
    }
  });

  it('a GET or HEAD of a route with a trailing slash is sent to the route (308, query kept); nothing else is', async () => {
    // a fresh app per request: the limit of appFor is 3 a minute, and not-found answers count
    const answer = async (family: Family, method: 'GET' | 'HEAD' | 'POST', url: string) => {
      const app = await appFor(family);
      const res = await app.inject({ method, url });
      await app.close();
      return [res.statusCode, res.headers.location];
    };
    for (const family of ['reader', 'admin'] as const) {
      // relative to the address asked: behind a proxy under /library, /library/thing/ goes to /library/thing
      expect(await answer(family, 'GET', '/thing/?n=1&q=a?b')).toEqual([308, '../thing?n=1&q=a?b']);
      expect(await answer(family, 'HEAD', '/thing/')).toEqual([308, '../thing']);
      expect(new URL('../thing?n=1', 'https://example.org/library/thing/').href).toBe(
        'https://example.org/library/thing?n=1',
      );
      // a write is not redirected (a client may not send its body again), nor an unknown path
      expect(await answer(family, 'POST', '/thing/')).toEqual([404, undefined]);
      for (const url of ['/nowhere/', '/thing//', '//thing/'])
        expect([url, ...(await answer(family, 'GET', url))]).toEqual([url, 404, undefined]);
    }
  });

  it('admin: validation failure and unknown route are code -1', async () => {
    const app = await appFor('admin');
    expect((await app.inject('/thing?n=0')).json()).toMatchObject({ code: -1 });
    expect((await app.inject('/nowhere')).statusCode).toBe(404);
  });

  it('rate limited is HTTP 429 with error_code 5 (reader) and a retry-after header', async () => {
    const app = await appFor('reader');
    for (let i = 0; i < 3; i++) expect((await app.inject('/thing?n=1')).statusCode).toBe(200);
    const res = await app.inject('/thing?n=1');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error_code: 5 });
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('decisions.md §1: health, readiness, docs', () => {
  it('/healthz answers ok outside the envelope; /readyz follows the database', async () => {
    expect((await (await appFor('reader')).inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await (await appFor('reader')).inject('/readyz')).json()).toEqual({
      status: 'ok',
      database: true,
    });
    const down = await (await appFor('reader', false)).inject('/readyz');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', database: false });
  });

  it('/openapi.json is generated from the contracts, components named by $id', async () => {
    const app = await appFor('reader');
    const doc = (await app.inject('/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(doc.components.schemas.BookSummary.properties.fileName).toBeDefined();
    expect(doc.paths['/thing'].get.operationId).toBe('thing');
    // health and readiness are public even where a bearer scheme applies globally
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/readyz'].get.security).toEqual([]);
    expect((await app.inject('/docs/')).statusCode).toBe(200);
  });

  it('/docs and /openapi.json go compressed to a client that accepts it; the API answers do not', async () => {
    const app = await createBaseApp({
      config: testConfig(),
      family: 'reader',
      logger: false,
      openapi: { title: 't', version: '1', description: 'd' },
      ready: async () => true,
    });
    app.get('/large', async () => ({ text: 'an answer of the API '.repeat(200) }));
    const br = { 'accept-encoding': 'gzip, deflate, br' };
    const doc = await app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(doc.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(doc.rawPayload).toString())).toEqual(
      (await app.inject('/openapi.json')).json(),
    );
    // the page itself is under the threshold (1 KiB): sent as it is
    const page = await app.inject({ url: '/docs/', headers: br });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBeUndefined();
    const script = /src="\.\/(static\/swagger-ui-bundle\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const plain = await app.inject(`/docs/${script}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const bundle = await app.inject({ url: `/docs/${script}`, headers: br });
    expect(bundle.headers['content-encoding']).toBe('br');
    expect(bundle.headers.vary).toMatch(/accept-encoding/i);
    expect(bundle.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(brotliDecompressSync(bundle.rawPayload).equals(plain.rawPayload)).toBe(true);
    const large = await app.inject({ url: '/large', headers: br });
    expect(large.rawPayload.length).toBeGreaterThan(4000);
    expect(large.headers['content-encoding']).toBeUndefined();
    expect((await app.inject({ url: '/nowhere', headers: br })).headers['content-encoding']).toBeUndefined();
    await app.close();
  });

  it('keeps a well-formed x-request-id and answers with it', async () => {
    const app = await appFor('reader');
    const res = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    const bad = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'a b\nc' } });
    expect(bad.headers['x-request-id']).not.toBe('a b\nc');
  });
});
