import { createHmac } from 'node:crypto';
import {
  authenticateOperator,
  changeOperatorPassword,
  createOperator,
  ensureFirstOperator,
  hashPassword,
  verifyPassword,
} from '@readlib/catalog';
import { testConfig } from '@readlib/config';
import { countOperators } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index.js';
import { type Harness, harness, JWT_SECRET, login, OPERATOR } from './helpers.js';

const dialects = await testDialects();

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe.each(dialects)('decisions.md §4 Auth on $name', (dialect) => {
  let t: Harness;
  beforeAll(async () => {
    t = await harness(dialect, { LOGIN_ATTEMPTS_PER_MINUTE: '5' });
  });
  afterAll(async () => t.close());

  const info = (headers: Record<string, string>, method: 'GET' | 'POST' = 'GET') =>
    t.app.inject({ method, url: '/user/info', headers });

  it('POST /user/login answers {code: 0, data: {token}} for JSON and URL-encoded bodies', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      payload: OPERATOR,
      remoteAddress: '10.0.0.1',
    });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ code: 0, data: { token: expect.any(String) } });
    const form = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(OPERATOR).toString(),
      remoteAddress: '10.0.0.2',
    });
    expect(form.statusCode).toBe(200);
    expect(form.json().data.token.split('.')).toHaveLength(3);
  });

  it('wrong username and wrong password are both 401 code -1 with the same message', async () => {
    const a = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      payload: { username: 'nobody', password: OPERATOR.password },
      remoteAddress: '10.0.1.1',
    });
    const b = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      payload: { username: OPERATOR.username, password: 'wrong password' },
      remoteAddress: '10.0.1.2',
    });
    expect(a.statusCode).toBe(401);
    expect(b.statusCode).toBe(401);
    expect(a.json()).toEqual(b.json());
    expect(a.json().code).toBe(-1);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/user/login',
      payload: { username: 'x' },
      remoteAddress: '10.0.1.3',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe(-1);
  });

  it('/user/info answers GET and POST with the operator profile and roles array (spec §2.11)', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await info(t.auth, method);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        code: 0,
        msg: expect.any(String),
        data: { avatar: '', id: expect.any(Number), nickname: 'ops', username: 'ops', roles: ['admin'] },
      });
    }
  });

  it('refuses missing, expired, tampered, alg none, foreign-secret and wrong-scheme tokens with 401 code -2', async () => {
    const [header, payload, signature] = t.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const hs256 = (body: object, secret = JWT_SECRET) => {
      const head = b64({ alg: 'HS256', typ: 'JWT' });
      const data = `${head}.${b64(body)}`;
      return `${data}.${createHmac('sha256', secret).update(data).digest('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      expired: { authorization: `Bearer ${hs256({ ...claims, iat: now - 7200, exp: now - 3600 })}` },
      // the app's own signer, with iat two hours back: exp = iat + 1h lies in the past
      expiredBySigner: {
        authorization: `Bearer ${t.app.jwt.sign({ sub: claims.sub, username: 'ops', iat: now - 7200 } as never)}`,
      },
      tampered: { authorization: `Bearer ${header}.${b64({ ...claims, sub: '999' })}.${signature}` },
      algNone: { authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${payload}.` },
      otherSecret: { authorization: `Bearer ${hs256(claims, 'another secret that is long enough!!')}` },
      wrongScheme: { authorization: `Basic ${t.token}` },
      noScheme: { authorization: t.token },
      garbage: { authorization: 'Bearer not.a.jwt' },
    };
    for (const [name, headers] of Object.entries(cases)) {
      for (const url of ['/user/info', '/book/list', '/screen/data']) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, `${name} ${url}`).toBe(401);
        expect(res.json(), `${name} ${url}`).toMatchObject({ code: -2 });
      }
    }
    // a correctly signed token still works, so the refusals above are about the token
    expect((await info({ authorization: `Bearer ${hs256(claims)}` })).statusCode).toBe(200);
  });

  it('a valid token of an operator removed since is 401 code -2 on /user/info', async () => {
    const { id } = await t.h.db
      .insertInto('operators')
      .values({ username: 'gone', password_hash: 'x', nickname: '', avatar: '', roles: '[]', created_at: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = t.app.jwt.sign({ sub: String(id), username: 'gone' });
    await t.h.db.deleteFrom('operators').where('id', '=', id).execute();
    const res = await info({ authorization: `Bearer ${token}` });
    expect([res.statusCode, res.json().code]).toEqual([401, -2]);
  });

  it('an upload without a token is refused before its body is read', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/book/upload',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: 'garbage',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(-2);
  });

  it('health and docs need no token; the OpenAPI document declares bearer auth', async () => {
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ok', database: true });
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const ops = Object.values(
      doc.paths as Record<
        string,
        Record<string, { operationId: string; responses: object; requestBody?: { content: object } }>
      >,
    ).flatMap((p) => Object.values(p));
    const ids = ops.map((o) => o.operationId);
    for (const id of [
      'login',
      'getUserInfo',
      'getDashboard',
      'listBooks',
      'getBook',
      'updateBook',
      'deleteBook',
      'uploadBook',
      'createBook',
      'listCategories',
      'getScreenData',
      'getScreenScatter',
      'getWordCloud',
      'getScreenMap',
    ]) {
      expect(ids).toContain(id);
    }
    for (const op of ops.filter(
      (o) => o.operationId !== 'login' && !['health', 'ready'].includes(o.operationId),
    )) {
      expect(Object.keys(op.responses), op.operationId).toEqual(
        expect.arrayContaining(['200', '400', '401', '429', '500']),
      );
    }
    // create answers 404 for an upload that expired: clients generated from the document must know it
    const create = ops.find((o) => o.operationId === 'createBook')!;
    expect(Object.keys(create.responses)).toContain('404');
    // the writes take URL-encoded forms beside JSON (decisions.md §4): the document said JSON only
    for (const id of ['login', 'createBook', 'updateBook']) {
      const op = ops.find((o) => o.operationId === id);
      expect(Object.keys(op?.requestBody?.content ?? {}).sort(), id).toEqual([
        'application/json',
        'application/x-www-form-urlencoded',
      ]);
    }
  });

  it('rate-limits login per client IP (429 code -1) and per username across IPs', async () => {
    const attempt = (username: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/user/login',
        payload: { username, password: 'nope-nope' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 5; i++) expect((await attempt(`user${i}`, '192.0.2.1')).statusCode).toBe(401);
    const byIp = await attempt('someone-else', '192.0.2.1');
    expect(byIp.statusCode).toBe(429);
    expect(byIp.json().code).toBe(-1);
    expect(byIp.headers['retry-after']).toBeDefined();

    for (let i = 0; i < 5; i++) expect((await attempt('target', `198.51.100.${i}`)).statusCode).toBe(401);
    const byUser = await attempt('target', '198.51.100.200');
    expect(byUser.statusCode).toBe(429);
    // the window passes: the app's clock moves a minute on
    t.clock.now += 61_000;
    expect((await attempt('target', '198.51.100.201')).statusCode).toBe(401);
  });
});

describe.each(dialects)('decisions.md §4 token lifetime (JWT_EXPIRES_IN) on $name', (dialect) => {
  const lifetime = async (expiresIn: string) => {
    const t = await harness(dialect, { JWT_EXPIRES_IN: expiresIn });
    try {
      const claims = JSON.parse(Buffer.from(t.token.split('.')[1]!, 'base64url').toString());
      expect((await t.app.inject({ method: 'GET', url: '/user/info', headers: t.auth })).statusCode).toBe(
        200,
      );
      return claims.exp - claims.iat;
    } finally {
      await t.close();
    }
  };

  it('reads a bare number as seconds, as README documents (@fastify/jwt alone reads milliseconds)', async () => {
    // 3600 gave tokens of 4 s, and 60 tokens already expired at login
    expect(await lifetime('3600')).toBe(3600);
    expect(await lifetime('30m')).toBe(1800);
  });
});

describe.each(dialects)('decisions.md §2 rate limit (429) on $name', (dialect) => {
  let t: Harness;
  beforeAll(async () => {
    t = await harness(dialect, { RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => t.close());

  it('counts requests refused for their token and requests to unknown routes (found by an audit)', async () => {
    const from = (ip: string, url: string) => t.app.inject({ method: 'GET', url, remoteAddress: ip });
    for (let i = 0; i < 3; i++) expect((await from('192.0.2.7', '/book/list')).statusCode).toBe(401);
    const limited = await from('192.0.2.7', '/screen/data');
    expect([limited.statusCode, limited.json().code]).toEqual([429, -1]);
    for (let i = 0; i < 3; i++) expect((await from('192.0.2.8', '/no-such-route')).statusCode).toBe(404);
    expect((await from('192.0.2.8', '/no-such-route')).statusCode).toBe(429);
  });
});

describe.each(dialects)('decisions.md §4 operators and passwords on $name', (dialect) => {
  it('stores scrypt$N$r$p$salt$hash and verifies it', async () => {
    const hash = await hashPassword('pa55word!');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('pa55word!', hash)).toBe(true);
    expect(await verifyPassword('pa55word?', hash)).toBe(false);
    expect(await verifyPassword('x', 'plain')).toBe(false);
  });

  // "josé" composed and decomposed is one operator; zero-width characters and line breaks are refused
  it('one operator per NFC username, no invisible characters in it, and no password of spaces only', async () => {
    const h = await dialect.create();
    try {
      await createOperator(h.db, { username: 'jos\u00e9', password: 'long enough' });
      await expect(createOperator(h.db, { username: 'jose\u0301', password: 'long enough' })).rejects.toThrow(
        /exists/,
      );
      // either spelling logs in as the one operator
      expect((await authenticateOperator(h.db, 'jose\u0301', 'long enough')).username).toBe('jos\u00e9');
      for (const username of ['bo\u200bb', 'two\nlines', 'tab\there'])
        await expect(createOperator(h.db, { username, password: 'long enough' }), username).rejects.toThrow(
          /control, format/,
        );
      await expect(createOperator(h.db, { username: 'spaces', password: '        ' })).rejects.toThrow(
        /white space/,
      );
      expect(await countOperators(h.db)).toBe(1);
    } finally {
      await h.destroy();
    }
  });

  // docs/deployment.md: "the first operator, created by the first admin replica that finds none": replicas
  // starting together on a new database must not exit on the unique violation
  it('admin replicas starting at once on a new database: one creates the first operator, none fails', async () => {
    for (const config of [
      testConfig({ NODE_ENV: 'development', ADMIN_USERNAME: 'ops', ADMIN_PASSWORD: 'long enough' }),
      testConfig({ NODE_ENV: 'development' }),
    ]) {
      const h = await dialect.create();
      try {
        const results = await Promise.all(Array.from({ length: 6 }, () => ensureFirstOperator(h.db, config)));
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(await countOperators(h.db)).toBe(1);
      } finally {
        await h.destroy();
      }
    }
  });

  it('creates the first operator from configuration, or a generated password outside production, once', async () => {
    const h = await dialect.create();
    try {
      const dev = testConfig({ NODE_ENV: 'development' });
      const first = await ensureFirstOperator(h.db, dev);
      expect(first).toMatchObject({
        created: true,
        username: 'admin',
        generatedPassword: expect.any(String),
      });
      expect(first.generatedPassword!.length).toBeGreaterThanOrEqual(16);
      expect(await ensureFirstOperator(h.db, dev)).toEqual({ created: false });
      const app = await buildApp(dev, { db: h.db, logger: false });
      expect(await login(app, { username: 'admin', password: first.generatedPassword! })).toBeTruthy();
      await app.close();
      await expect(
        createOperator(h.db, { username: 'admin', password: 'another-pass' }),
      ).rejects.toMatchObject({ kind: 'conflict' });
      await expect(createOperator(h.db, { username: 'short', password: '1234' })).rejects.toMatchObject({
        kind: 'invalid',
      });
      expect(await countOperators(h.db)).toBe(1);
      // past the login form's limits (128 / 256 characters) an account could never log in
      for (const account of [
        { username: 'u'.repeat(129), password: 'long enough pw' },
        { username: 'long', password: 'p'.repeat(257) },
      ])
        await expect(createOperator(h.db, account)).rejects.toMatchObject({ kind: 'invalid' });
      await expect(changeOperatorPassword(h.db, 'admin', '😀'.repeat(257))).rejects.toMatchObject({
        kind: 'invalid',
      });
      // at the limits it can: 128 and 256 characters, counted as code points like the form's schema
      const longest = { username: '用'.repeat(128), password: '😀'.repeat(256) };
      await createOperator(h.db, longest);
      const again = await buildApp(dev, { db: h.db, logger: false });
      expect(await login(again, longest)).toBeTruthy();
      await again.close();
    } finally {
      await h.destroy();
    }
  });

  it('ADMIN_USERNAME/ADMIN_PASSWORD changed after the first operator: reported as ignored, nothing changed', async () => {
    const h = await dialect.create();
    const configured = (username: string, password?: string) =>
      testConfig({
        NODE_ENV: 'development',
        ADMIN_USERNAME: username,
        ...(password === undefined ? {} : { ADMIN_PASSWORD: password }),
      });
    try {
      expect(await ensureFirstOperator(h.db, configured('ops', 'first password'))).toEqual({
        created: true,
        username: 'ops',
      });
      // the variables as they were: the usual later start, nothing to say
      expect(await ensureFirstOperator(h.db, configured('ops', 'first password'))).toEqual({
        created: false,
      });
      expect(await ensureFirstOperator(h.db, configured('ops'))).toEqual({ created: false });
      expect(await ensureFirstOperator(h.db, configured('ops', 'second password'))).toEqual({
        created: false,
        ignored: 'another password',
      });
      expect(await ensureFirstOperator(h.db, configured('ops2', 'first password'))).toEqual({
        created: false,
        ignored: 'no such operator',
      });
      expect(await countOperators(h.db)).toBe(1);
      const app = await buildApp(configured('ops'), { db: h.db, logger: false });
      expect(await login(app, { username: 'ops', password: 'first password' })).toBeTruthy();
      await app.close();
    } finally {
      await h.destroy();
    }
  });

  it('production without a configured operator refuses to invent one', async () => {
    const h = await dialect.create();
    try {
      const prod = { ...testConfig({ JWT_SECRET }), env: 'production' as const, firstOperator: undefined };
      await expect(ensureFirstOperator(h.db, prod)).rejects.toThrow(/ADMIN_USERNAME/);
      expect(await countOperators(h.db)).toBe(0);
    } finally {
      await h.destroy();
    }
  });
});
