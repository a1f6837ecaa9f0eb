import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { testConfig } from '@readlib/config';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createBaseApp, type Family } from '../src/index.js';
import { inputProblem } from '../src/input-guard.js';
import { redactUrl } from '../src/log-redaction.js';

// Regression tests of the fixes tests/reliability called for (see docs/reliability.md).
async function appFor(family: Family, env: Record<string, string> = {}) {
  const app = await createBaseApp({
    config: testConfig(env),
    family,
    logger: false,
    openapi: { title: 't', version: '1', description: 'd' },
    ready: async () => true,
  });
  app.get(
    '/paged',
    {
      schema: {
        querystring: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
          q: Type.Optional(Type.String()),
        }),
      },
    },
    async (req) => ({ error_code: 0, msg: 'ok', data: req.query }),
  );
  return app;
}

describe('input guard', () => {
  it('refuses Infinity (which AJV coerces and lets past maximum), unsafe integers and NUL with the 400 envelope', async () => {
    const app = await appFor('reader');
    for (const url of ['/paged?page=Infinity', '/paged?page=1e309', '/paged?q=a%00b']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({ error_code: 2 });
    }
    expect((await app.inject('/paged?page=3&q=ok')).statusCode).toBe(200);
    await app.close();
  });

  it('inputProblem walks nested bodies', () => {
    expect(inputProblem({ a: [{ b: 'x\u0000' }] })).toBe('a[0].b: NUL characters are not accepted');
    expect(inputProblem({ n: 2 ** 60 })).toBe('n: numbers must be finite and at most 2^53');
    expect(inputProblem({ a: 'fine', n: 3, list: ['x'] })).toBeUndefined();
    // half a surrogate pair (JSON's "\ud800") is refused; a whole pair is text like any other
    expect(inputProblem({ t: 'a\ud800b' })).toMatch(/lone surrogate/);
    expect(inputProblem({ t: 'a\udc00' })).toMatch(/lone surrogate/);
    expect(inputProblem({ t: '😀 and 出' })).toBeUndefined();
  });
});

describe('framework errors', () => {
  it('a URL that is not valid percent-encoded UTF-8 is answered in the family envelope', async () => {
    for (const [family, code] of [
      ['reader', { error_code: 2 }],
      ['admin', { code: -1 }],
    ] as const) {
      const app = await appFor(family);
      const res = await app.inject('/res/%c0%ae%c0%ae/x');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject(code);
      await app.close();
    }
  });
});

/** Sends `raw` on a new connection and returns everything the server wrote before it closed. */
function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
  });
}

describe('client errors (requests Node refuses before routing)', () => {
  it.each([
    ['reader', { error_code: 2 }],
    ['admin', { code: -1 }],
  ] as const)(
    'are answered in the %s envelope with their HTTP status, and the connection closes',
    async (family, code) => {
      const app = await appFor(family);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const cases = [
        [
          `GET /paged?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`,
          431,
          'request header fields too large',
        ],
        ['GET /paged q HTTP/1.1\r\nHost: a\r\n\r\n', 400, 'malformed HTTP request'],
        ['POST /paged HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n', 400, 'malformed HTTP request'],
      ] as const;
      for (const [raw, status, msg] of cases) {
        const answer = await rawExchange(port, raw);
        const [head, body] = answer.split('\r\n\r\n');
        expect(head, raw.slice(0, 30)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(head).toMatch(/content-type: application\/json/i);
        expect(JSON.parse(body!)).toEqual({ ...code, msg });
      }
      // a well-formed request on a new connection is served as usual
      expect(
        (await rawExchange(port, 'GET /paged?page=2 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).split(
          '\r\n',
        )[0],
      ).toBe('HTTP/1.1 200 OK');
      await app.close();
    },
  );
});

describe('a request body that stops arriving (READER_ / ADMIN_REQUEST_TIMEOUT_MS)', () => {
  it.each([
    ['reader', 'READER_REQUEST_TIMEOUT_MS', { error_code: -1 }],
    ['admin', 'ADMIN_REQUEST_TIMEOUT_MS', { code: -1 }],
  ] as const)(
    '%s: 408 in the envelope once the time is up, and the connection closes',
    async (family, env, code) => {
      // never held for ever, although Fastify turns Node's own limit off
      const app = await appFor(family, { [env]: '400' });
      app.post('/echo', async (req) => ({ ...code, msg: 'ok', data: req.body }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const started = Date.now();
      const answer = await rawExchange(
        port,
        'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
      );
      const [head, body] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(body!)).toEqual({ ...code, msg: 'request timeout' });
      expect(Date.now() - started).toBeLessThan(5_000);
      await app.close();
    },
  );

  it('defaults: a minute for the reader, half an hour for the admin service (uploads)', () => {
    expect(testConfig().requestTimeoutMs).toEqual({ reader: 60_000, admin: 1_800_000 });
  });

  it('defaults: a connection silent both ways 2 minutes is closed; SIGTERM cuts what is in flight after 20 s', () => {
    expect(testConfig()).toMatchObject({ socketIdleTimeoutMs: 120_000, shutdownTimeoutMs: 20_000 });
    expect(() => testConfig({ SHUTDOWN_TIMEOUT_MS: '-1' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });
});

describe('log redaction', () => {
  it('masks credential-bearing query values and keeps the rest', () => {
    expect(redactUrl('/openId/get?appId=wx1&code=abc&secret=s3')).toBe(
      '/openId/get?appId=wx1&code=[redacted]&secret=[redacted]',
    );
    expect(redactUrl('/user/info?access_token=t&Token=u&page=2')).toBe(
      '/user/info?access_token=[redacted]&Token=[redacted]&page=2',
    );
    expect(redactUrl('/book/home/v2?openId=o-123&page=1')).toBe('/book/home/v2?openId=[redacted]&page=1');
    expect(redactUrl('/book/search?keyword=secret')).toBe('/book/search?keyword=secret');
    expect(redactUrl('/healthz')).toBe('/healthz');
    // shelf/save carries the reader's openId inside a JSON value
    const shelf = encodeURIComponent(JSON.stringify({ openId: 'o-123', fileName: 'b_1', token: 't\\"x' }));
    const logged = redactUrl(`/book/shelf/save?shelf=${shelf}&page=1`);
    expect(logged).not.toContain('o-123');
    expect(logged).not.toContain('t%5C%22x');
    expect(JSON.parse(decodeURIComponent(/shelf=([^&]*)/.exec(logged)![1]!))).toEqual({
      openId: '[redacted]',
      fileName: 'b_1',
      token: '[redacted]',
    });
    expect(logged.endsWith('&page=1')).toBe(true);
    expect(redactUrl('/book/search?keyword=%22quoted%22')).toBe('/book/search?keyword=%22quoted%22');
  });
});
