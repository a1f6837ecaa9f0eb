import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { insertBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { makeEpub } from '@readlib/epub/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Apps, buildApps, JWT_SECRET, OPERATOR } from '../src/apps.js';
import { recordFigures } from '../src/profile.js';

const [sqlite] = await testDialects();
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const sign = (claims: object, { alg = 'HS256', secret = JWT_SECRET } = {}) => {
  const data = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
  const h = alg === 'HS512' ? 'sha512' : 'sha256';
  return `${data}.${createHmac(h, secret).update(data).digest('base64url')}`;
};
const figures: Record<string, number> = {};
afterAll(() => recordFigures('security', figures));

describe('tokens: what existing admin tests do not cover', () => {
  let t: Apps;
  beforeAll(async () => {
    t = await buildApps(sqlite!);
  });
  afterAll(() => t?.close());

  it('refuses tokens outside the Authorization header, doubled, malformed, or with odd claims: 401 code -2, never 500', async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = t.token;
    const cases: Array<[string, { url?: string; headers?: Record<string, string> }]> = [
      ['query token', { url: `/user/info?token=${good}` }],
      ['query access_token', { url: `/user/info?access_token=${good}` }],
      ['query authorization', { url: `/user/info?authorization=Bearer%20${good}` }],
      ['cookie', { headers: { cookie: `token=${good}; authorization=Bearer ${good}` } }],
      ['x-access-token', { headers: { 'x-access-token': good } }],
      ['two tokens', { headers: { authorization: `Bearer ${good} ${good}` } }],
      ['two tokens, comma', { headers: { authorization: `Bearer ${good}, Bearer ${good}` } }],
      ['empty bearer', { headers: { authorization: 'Bearer ' } }],
      ['bearer only', { headers: { authorization: 'Bearer' } }],
      ['trailing garbage', { headers: { authorization: `Bearer ${good}x` } }],
      ['four parts', { headers: { authorization: `Bearer ${good}.${good.split('.')[2]}` } }],
      [
        'HS512 with the secret',
        {
          headers: {
            authorization: `Bearer ${sign({ sub: '1', username: 'ops', iat: now }, { alg: 'HS512' })}`,
          },
        },
      ],
      [
        'not yet valid',
        {
          headers: {
            authorization: `Bearer ${sign({ sub: '1', username: 'ops', iat: now, nbf: now + 3600 })}`,
          },
        },
      ],
      ['huge header', { headers: { authorization: `Bearer ${'a'.repeat(8000)}.${'b'.repeat(8000)}.c` } }],
      ['unicode', { headers: { authorization: 'Bearer ЖЖЖ.ЖЖЖ.ЖЖЖ' } }],
    ];
    for (const [name, c] of cases) {
      const res = await t.admin.inject({
        method: 'GET',
        url: c.url ?? '/user/info',
        headers: c.headers ?? {},
      });
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toMatchObject({ code: -2 });
    }
    figures.tokenCases = cases.length;
  });

  it('a validly signed token with odd claims never reaches a 500', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims: object[] = [
      { sub: 'abc', username: 'ops', iat: now },
      { sub: '1e400', username: 'ops', iat: now },
      { sub: '-1', username: 'ops', iat: now },
      { sub: '99999999999999999999', username: 'ops', iat: now },
      { username: 'ops', iat: now },
      { sub: { $gt: '' }, username: 'ops', iat: now },
      { sub: '1', iat: now, exp: 'tomorrow' },
    ];
    for (const c of claims) {
      const res = await t.admin.inject({
        method: 'GET',
        url: '/user/info',
        headers: { authorization: `Bearer ${sign(c)}` },
      });
      expect(res.statusCode, JSON.stringify(c)).toBeLessThan(500);
      expect([200, 401, 404], JSON.stringify(c)).toContain(res.statusCode);
      expect(res.json()).toHaveProperty('code');
    }
    figures.claimCases = claims.length;
  });
});

describe('/res/ never serves what is outside the store', () => {
  let t: Apps;
  let outside: string;
  beforeAll(async () => {
    t = await buildApps(sqlite!);
    outside = join(dirname(t.root), `outside-${Date.now()}.txt`);
    await writeFile(outside, 'OUTSIDE-CONTENT');
    await mkdir(join(t.root, 'img'), { recursive: true });
    await mkdir(join(t.root, 'unzip', 'b1'), { recursive: true });
    await writeFile(join(t.root, 'img', 'ok.png'), 'INSIDE');
    await symlink(outside, join(t.root, 'img', 'link.png'));
    await symlink(dirname(outside), join(t.root, 'unzip', 'b1', 'dirlink'));
    await symlink('/etc', join(t.root, 'unzip', 'etc'));
    // books of those names: their files are served, so what refuses the links is the store's guard
    for (const fileName of ['b1', 'etc'])
      await insertBook(t.h.db, sampleBook({ file_name: fileName, unzip_path: `unzip/${fileName}` }), []);
  });
  afterAll(async () => {
    await rm(outside, { force: true });
    await t?.close();
  });

  it('serves a plain stored file', async () => {
    const res = await t.reader.inject('/res/img/ok.png');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('INSIDE');
  });

  const name = () => outside.split('/').pop()!;
  const attempts = () => [
    '/res/img/link.png',
    `/res/unzip/b1/dirlink/${name()}`,
    '/res/unzip/etc/passwd',
    '/res/unzip/etc/hostname',
    `/res/%2e%2e/${name()}`,
    `/res/%c0%ae%c0%ae/${name()}`,
    `/res/%c0%ae%c0%ae%c0%af${name()}`,
    `/res/%e0%80%ae%e0%80%ae/${name()}`,
    `/res/%ef%bc%8e%ef%bc%8e/${name()}`,
    `/res/..%c0%af${name()}`,
    `/res/%252e%252e%252f${name()}`,
    `/res/%25252e%25252e/${name()}`,
    `/res/..%5c${name()}`,
    `/res/img%5c..%5c..%5c${name()}`,
    '/res//etc/passwd',
    '/res/%2fetc%2fpasswd',
    '/res/%2F%2Fetc/passwd',
    '/res/img/ok.png%00.txt',
    '/res/img/ok.png%2500',
    '/res/file:///etc/passwd',
    '/res/C:%5cWindows%5cwin.ini',
    `/res/img/../../${name()}`,
    `/res/${'../'.repeat(20)}etc/passwd`,
    `/res/${'%2e%2e%2f'.repeat(20)}etc/passwd`,
    `/res/img/..;/..;/${name()}`,
  ];

  it('refuses encoded, double-encoded, overlong, backslash, NUL, absolute and symlinked paths', async () => {
    const list = attempts();
    for (const url of list) {
      const res = await t.reader.inject(url);
      expect([400, 403, 404], url).toContain(res.statusCode);
      expect(res.body, url).not.toContain('OUTSIDE-CONTENT');
      expect(res.body, url).not.toMatch(/root:.*:0:0:/);
      expect(JSON.parse(res.body), url).toHaveProperty('error_code');
    }
    figures.traversalCases = list.length;
  });
});

describe('headers, CORS and size limits', () => {
  let t: Apps;
  beforeAll(async () => {
    t = await buildApps(sqlite!, {
      CORS_ORIGIN: 'https://app.example, https://console.example',
      UPLOAD_MAX_BYTES: String(64 * 1024),
      LOGIN_ATTEMPTS_PER_MINUTE: '5',
    });
  });
  afterAll(() => t?.close());

  it('security headers on success, error and not-found answers of both services', async () => {
    const auth = { authorization: `Bearer ${t.token}` };
    const answers = [
      await t.reader.inject('/book/category/list/v2'),
      await t.reader.inject('/book/search'),
      await t.reader.inject('/nope'),
      await t.admin.inject({ url: '/book/list', headers: auth }),
      await t.admin.inject('/book/list'),
      await t.admin.inject('/nope'),
    ];
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-dns-prefetch-control']).toBe('off');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('CORS: a configured origin is echoed, any other is not (simple and preflight requests)', async () => {
    for (const app of [t.reader, t.admin]) {
      for (const origin of ['https://app.example', 'https://console.example']) {
        const res = await app.inject({ url: '/healthz', headers: { origin } });
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(String(res.headers.vary)).toMatch(/origin/i);
        const pre = await app.inject({
          method: 'OPTIONS',
          url: '/user/login',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization,content-type',
          },
        });
        expect(pre.statusCode).toBe(204);
        expect(pre.headers['access-control-allow-origin']).toBe(origin);
        // kept by the browser for ten minutes, not Chromium's 5 s default
        expect(pre.headers['access-control-max-age']).toBe('600');
      }
      for (const origin of [
        'https://evil.example',
        'https://app.example.evil.com',
        'null',
        'http://app.example',
      ]) {
        const res = await app.inject({ url: '/healthz', headers: { origin } });
        expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
        const pre = await app.inject({
          method: 'OPTIONS',
          url: '/user/login',
          headers: { origin, 'access-control-request-method': 'POST' },
        });
        expect(pre.headers['access-control-allow-origin'], origin).toBeUndefined();
        expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
      }
    }
  });

  it('CORS: an OPTIONS request that is no preflight (no Access-Control-Request-Method) is no error either', async () => {
    // @fastify/cors answered it `400 text/plain Invalid Preflight Request`, outside every envelope
    for (const app of [t.reader, t.admin]) {
      for (const headers of [{}, { origin: 'https://app.example' }]) {
        const res = await app.inject({ method: 'OPTIONS', url: '/book/search', headers });
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
      }
    }
  });

  it('JSON and form bodies over the limit: 413 in the family envelope', async () => {
    const big = JSON.stringify({ openId: 'x', nickName: 'n'.repeat(1.5 * 1024 * 1024) });
    const reader = await t.reader.inject({
      method: 'POST',
      url: '/user/register',
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    expect(reader.statusCode).toBe(413);
    expect(reader.json()).toMatchObject({ error_code: expect.any(Number), msg: expect.any(String) });
    const auth = { authorization: `Bearer ${t.token}` };
    for (const [url, ct, payload] of [
      [
        '/book/create',
        'application/json',
        JSON.stringify({ fileName: 'x', title: 't'.repeat(1.5 * 1024 * 1024) }),
      ],
      [
        '/book/update',
        'application/x-www-form-urlencoded',
        `fileName=x&title=${'t'.repeat(1.5 * 1024 * 1024)}`,
      ],
      [
        '/user/login',
        'application/json',
        JSON.stringify({ username: 'u', password: 'p'.repeat(1.5 * 1024 * 1024) }),
      ],
    ] as const) {
      const res = await t.admin.inject({
        method: 'POST',
        url,
        headers: { ...auth, 'content-type': ct },
        payload,
      });
      expect(res.statusCode, url).toBe(413);
      expect(res.json(), url).toMatchObject({ code: -1 });
    }
  });

  it('an upload over UPLOAD_MAX_BYTES: 413 envelope, nothing stored', async () => {
    const epub = makeEpub({
      title: 'Too big',
      chapters: [{ title: 'c', body: `<p>${randomBytes(60 * 1024).toString('hex')}</p>` }],
    });
    expect(epub.length).toBeGreaterThan(64 * 1024);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(epub)]), 'big.epub');
    const r = new Response(form);
    const res = await t.admin.inject({
      method: 'POST',
      url: '/book/upload',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': r.headers.get('content-type')! },
      payload: Buffer.from(await r.arrayBuffer()),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: -1 });
    expect(await t.store.listFileNames()).toEqual([]);
    const rows = await t.h.db.selectFrom('uploads').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('login brute force is throttled: 429 envelope with retry-after, even for the right password', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.admin.inject({
        method: 'POST',
        url: '/user/login',
        payload: { username: OPERATOR.username, password: `guess-${i}` },
        remoteAddress: '10.9.8.7',
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toMatchObject({ code: -1 });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 4).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(-6).every((s) => s === 429)).toBe(true);
    const right = await t.admin.inject({
      method: 'POST',
      url: '/user/login',
      payload: OPERATOR,
      remoteAddress: '10.9.8.7',
    });
    expect(right.statusCode).toBe(429);
    figures.bruteForceAttempts = statuses.length;
  });
});
