import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wechatCodeToSession } from '../src/platforms/wechat.client.js';
import { dialects, get, type Harness, harness } from './helpers.js';
import {
  alipayKeys,
  json,
  requestSignatureValid,
  type StandIn,
  signedAnswer,
  standIn,
} from './platform-stand-ins.js';

const NODE = 'alipay_system_oauth_token_response';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe.each(dialects)('spec §4.3 / decisions.md §3 login-code exchange on $name', (dialect) => {
  let wx: StandIn;
  let ali: StandIn;
  let keys: ReturnType<typeof alipayKeys>;
  let t: Harness;

  beforeAll(async () => {
    keys = alipayKeys();
    wx = await standIn((_req, res) =>
      json(res, 200, { openid: 'wx-open', session_key: 'wx-session', unionid: 'u' }),
    );
    ali = await standIn((_req, res) =>
      json(
        res,
        200,
        signedAnswer(
          NODE,
          { user_id: '2088001', open_id: 'open-9', access_token: 'tok-1', expires_in: 3600 },
          keys.alipayPrivate,
        ),
      ),
    );
    t = await harness(dialect, {
      WECHAT_API_BASE: wx.url,
      WECHAT_APP_SECRETS: 'wxserver=server-secret',
      ALIPAY_GATEWAY: `${ali.url}/gateway.do`,
      ALIPAY_APP_KEYS: `2021app=${keys.appPrivate}:${keys.alipayPublic}`,
      PLATFORM_TIMEOUT_MS: '300',
    });
  });
  afterAll(async () => {
    await t.close();
    await wx.close();
    await ali.close();
    rmSync(keys.dir, { recursive: true, force: true });
  });
  afterEach(() => {
    wx.requests.length = 0;
    ali.requests.length = 0;
  });

  describe('messaging platform (WeChat jscode2session)', () => {
    it('answers exactly {openid, session_key} and sends the documented query', async () => {
      wx.handle = (_req, res) =>
        json(res, 200, { openid: 'wx-open', session_key: 'wx-session', unionid: 'u' });
      const res = await get(t, '/openId/get', { appId: 'wxclient', code: 'c0de', secret: 'client-secret' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        error_code: 0,
        msg: 'success',
        data: { openid: 'wx-open', session_key: 'wx-session' },
      });
      const sent = wx.requests[0]!.url;
      expect(sent.pathname).toBe('/sns/jscode2session');
      expect(Object.fromEntries(sent.searchParams)).toEqual({
        appid: 'wxclient',
        secret: 'client-secret',
        js_code: 'c0de',
        grant_type: 'authorization_code',
      });
    });

    it('a base URL with a path keeps it (an egress proxy), with or without its trailing slash', async () => {
      wx.handle = (_req, res) => json(res, 200, { openid: 'wx-open', session_key: 'wx-session' });
      for (const base of [`${wx.url}/wxproxy`, `${wx.url}/wxproxy/`, wx.url]) {
        const answer = await wechatCodeToSession(
          { baseUrl: base, timeoutMs: 1000, fetch: globalThis.fetch },
          { appId: 'wxclient', secret: 's', code: 'c' },
        );
        expect(answer).toEqual({ openid: 'wx-open', session_key: 'wx-session' });
      }
      expect(wx.requests.map((r) => r.url.pathname)).toEqual([
        '/wxproxy/sns/jscode2session',
        '/wxproxy/sns/jscode2session',
        '/sns/jscode2session',
      ]);
    });

    it("the server's secret for a known appId wins over the client's", async () => {
      await get(t, '/openId/get', { appId: 'wxserver', code: 'c', secret: 'client-secret' });
      expect(wx.requests[0]!.url.searchParams.get('secret')).toBe('server-secret');
    });

    it('a refused code (errcode) is 502 error_code 3 with the reason', async () => {
      wx.handle = (_req, res) => json(res, 200, { errcode: 40029, errmsg: 'invalid code' });
      const res = await get(t, '/openId/get', { appId: 'a', code: 'bad', secret: 's' });
      expect(res.status).toBe(502);
      expect(res.body.error_code).toBe(3);
      expect(res.body.msg).toContain('40029');
      expect(res.body.msg).toContain('invalid code');
    });

    it('an upstream HTTP error or a non-JSON answer is 502 error_code 3', async () => {
      wx.handle = (_req, res) => json(res, 500, 'oops');
      expect(await get(t, '/openId/get', { appId: 'a', code: 'c', secret: 's' })).toMatchObject({
        status: 502,
        body: { error_code: 3, msg: expect.stringContaining('HTTP 500') },
      });
      wx.handle = (_req, res) => json(res, 200, '<html>');
      expect((await get(t, '/openId/get', { appId: 'a', code: 'c', secret: 's' })).body.error_code).toBe(3);
    });

    it('an upstream that never answers is 502 error_code 3 after the timeout, not a hang', async () => {
      wx.handle = () => {};
      const started = Date.now();
      const res = await get(t, '/openId/get', { appId: 'a', code: 'c', secret: 's' });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(res).toMatchObject({
        status: 502,
        body: { error_code: 3, msg: expect.stringContaining('300 ms') },
      });
    });

    it('missing secret or code is 400 error_code 2', async () => {
      expect(await get(t, '/openId/get', { appId: 'a', code: 'c' })).toMatchObject({
        status: 400,
        body: { error_code: 2 },
      });
      expect(await get(t, '/openId/get', { appId: 'a', secret: 's' })).toMatchObject({
        status: 400,
        body: { error_code: 2 },
      });
    });
  });

  describe('payment platform (Alipay alipay.system.oauth.token)', () => {
    const happy = () => {
      ali.handle = (_req, res) =>
        json(
          res,
          200,
          signedAnswer(
            NODE,
            { user_id: '2088001', open_id: 'open-9', access_token: 'tok-1' },
            keys.alipayPrivate,
          ),
        );
    };

    it.each(['/openId/get/payplatform', '/openId/get/alipay'])(
      '%s signs the call RSA2, verifies the answer and answers user_id|open_id and the token',
      async (path) => {
        happy();
        const res = await get(t, path, { appId: '2021app', code: 'auth-1' });
        expect(res.body).toEqual({
          error_code: 0,
          msg: 'success',
          data: { openid: '2088001|open-9', session_key: 'tok-1' },
        });
        const { url, body } = ali.requests[0]!;
        const params = new URLSearchParams([...url.searchParams, ...new URLSearchParams(body)]);
        expect(Object.fromEntries(params)).toMatchObject({
          app_id: '2021app',
          method: 'alipay.system.oauth.token',
          sign_type: 'RSA2',
          grant_type: 'authorization_code',
          code: 'auth-1',
        });
        expect(params.get('timestamp')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
        expect(requestSignatureValid(params, keys.appPublic)).toBe(true);
      },
    );

    it('without open_id in the answer, the user id stands on both sides of the bar', async () => {
      ali.handle = (_req, res) =>
        json(res, 200, signedAnswer(NODE, { user_id: '2088002', access_token: 'tok-2' }, keys.alipayPrivate));
      const res = await get(t, '/openId/get/alipay', { appId: '2021app', code: 'c' });
      expect(res.body.data).toEqual({ openid: '2088002|2088002', session_key: 'tok-2' });
    });

    it('an error_response is 502 error_code 3 with the reason', async () => {
      ali.handle = (_req, res) =>
        json(res, 200, {
          error_response: {
            code: '40002',
            msg: 'Invalid Arguments',
            sub_code: 'isv.code-invalid',
            sub_msg: 'auth code invalid',
          },
          sign: 'x',
        });
      const res = await get(t, '/openId/get/payplatform', { appId: '2021app', code: 'used' });
      expect(res).toMatchObject({
        status: 502,
        body: { error_code: 3, msg: expect.stringContaining('isv.code-invalid') },
      });
    });

    it('a bad or missing answer signature is 502 error_code 3', async () => {
      ali.handle = (_req, res) =>
        json(res, 200, signedAnswer(NODE, { user_id: '1', access_token: 't' }, keys.alipayPrivate, true));
      expect(await get(t, '/openId/get/payplatform', { appId: '2021app', code: 'c' })).toMatchObject({
        status: 502,
        body: { error_code: 3, msg: expect.stringContaining('signature') },
      });
      ali.handle = (_req, res) => json(res, 200, { [NODE]: { user_id: '1', access_token: 't' } });
      expect((await get(t, '/openId/get/payplatform', { appId: '2021app', code: 'c' })).body.error_code).toBe(
        3,
      );
    });

    it('a genuine signed answer with an unsigned node appended is refused, its values never read', async () => {
      const genuine = signedAnswer(NODE, { user_id: '1', access_token: 't' }, keys.alipayPrivate);
      const forged = `${genuine.slice(0, -1)},"${NODE}":{"user_id":"666","access_token":"evil"}}`;
      ali.handle = (_req, res) => json(res, 200, forged);
      const res = await get(t, '/openId/get/payplatform', { appId: '2021app', code: 'c' });
      expect(res).toMatchObject({
        status: 502,
        body: { error_code: 3, msg: expect.stringContaining('repeats') },
      });
      expect(JSON.stringify(res.body)).not.toContain('666');
    });

    it('an upstream HTTP error or a silent upstream is 502 error_code 3', async () => {
      ali.handle = (_req, res) => json(res, 503, 'busy');
      expect(await get(t, '/openId/get/payplatform', { appId: '2021app', code: 'c' })).toMatchObject({
        status: 502,
        body: { error_code: 3 },
      });
      ali.handle = () => {};
      expect(await get(t, '/openId/get/payplatform', { appId: '2021app', code: 'c' })).toMatchObject({
        status: 502,
        body: { error_code: 3, msg: expect.stringContaining('300 ms') },
      });
    });

    it('an appId the server has no keys for is 400 error_code 2', async () => {
      expect(await get(t, '/openId/get/payplatform', { appId: 'unknown', code: 'c' })).toMatchObject({
        status: 400,
        body: { error_code: 2 },
      });
    });
  });

  it('an answer past 64 KiB is 502 error_code 3, with or without a declared length, and not relayed', async () => {
    const huge = JSON.stringify({ openid: 'x'.repeat(100_000), session_key: 's' });
    wx.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(huge) });
      res.end(huge);
    };
    const declared = await get(t, '/openId/get', { appId: 'wxclient', code: 'c', secret: 's' });
    expect(declared).toMatchObject({
      status: 502,
      body: { error_code: 3, msg: expect.stringContaining('larger') },
    });
    wx.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length to go by
      for (let i = 0; i < huge.length; i += 8192) res.write(huge.slice(i, i + 8192));
      res.end();
    };
    const streamed = await get(t, '/openId/get', { appId: 'wxclient', code: 'c', secret: 's' });
    expect(streamed).toMatchObject({
      status: 502,
      body: { error_code: 3, msg: expect.stringContaining('larger') },
    });
    expect(JSON.stringify(streamed.body).length).toBeLessThan(1000);
  });

  it('a key file that is missing or not a key stops the service at start, naming the app', async () => {
    await expect(
      harness(dialect, { ALIPAY_APP_KEYS: `2021app=${keys.dir}/missing.pem:${keys.alipayPublic}` }),
    ).rejects.toThrow(/"2021app".*missing\.pem.*ENOENT/);
    writeFileSync(join(keys.dir, 'junk.pem'), 'not a key');
    await expect(
      harness(dialect, { ALIPAY_APP_KEYS: `otherapp=${keys.appPrivate}:${join(keys.dir, 'junk.pem')}` }),
    ).rejects.toThrow(/"otherapp".*junk\.pem/);
  });

  it('an unreachable platform (closed port) is 502 error_code 3 on both platforms', async () => {
    const port = await closedPort();
    const down = await harness(dialect, {
      WECHAT_API_BASE: `http://127.0.0.1:${port}`,
      ALIPAY_GATEWAY: `http://127.0.0.1:${port}/gateway.do`,
      ALIPAY_APP_KEYS: `2021app=${keys.appPrivate}:${keys.alipayPublic}`,
      PLATFORM_TIMEOUT_MS: '300',
    });
    try {
      const wxRes = await get(down, '/openId/get', { appId: 'a', code: 'c', secret: 's' });
      expect(wxRes).toMatchObject({
        status: 502,
        body: { error_code: 3, msg: expect.stringContaining('unreachable') },
      });
      const aliRes = await get(down, '/openId/get/alipay', { appId: '2021app', code: 'c' });
      expect(aliRes).toMatchObject({
        status: 502,
        body: { error_code: 3, msg: expect.stringContaining('unreachable') },
      });
    } finally {
      await down.close();
    }
  });
});
