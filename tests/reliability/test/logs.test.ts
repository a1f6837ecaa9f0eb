import { afterAll, describe, expect, it } from 'vitest';
import { OPERATOR, type Service, startService, workspace } from '../src/proc.js';
import { recordFigures } from '../src/profile.js';

const WRONG = 'Wrong-Guess-Pa55-7741';
const APP_SECRET = 'mini-program-secret-5521';
const LOGIN_CODE = 'one-time-login-code-9083';

describe('logs never contain passwords, tokens or platform secrets', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  it('pino output of both services (trace level) during logins, authenticated calls and failures', async () => {
    const ws = await workspace({
      LOG_LEVEL: 'trace',
      WECHAT_API_BASE: 'http://127.0.0.1:9',
      PLATFORM_TIMEOUT_MS: '500',
    });
    cleanups.push(ws.remove);
    const [admin, reader]: Service[] = await Promise.all([
      startService('admin', ws.env),
      startService('reader', ws.env),
    ]);
    cleanups.push(
      async () => void (await admin.kill('SIGKILL')),
      async () => void (await reader.kill('SIGKILL')),
    );

    const post = (
      url: string,
      body: string,
      type = 'application/json',
      headers: Record<string, string> = {},
    ) => fetch(`${admin.url}${url}`, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
    const ok = await post('/user/login', JSON.stringify(OPERATOR));
    expect(ok.status).toBe(200);
    const token = ((await ok.json()) as { data: { token: string } }).data.token;
    const form = await post(
      '/user/login',
      new URLSearchParams(OPERATOR).toString(),
      'application/x-www-form-urlencoded',
    );
    expect(form.status).toBe(200);
    const auth = { authorization: `Bearer ${token}` };
    for (const path of ['/user/info', '/book/list?pageSize=5', '/book/home', '/screen/data']) {
      expect((await fetch(`${admin.url}${path}`, { headers: auth })).status).toBe(200);
    }
    expect((await post('/user/info', '{}', 'application/json', auth)).status).toBe(200);
    // failures: wrong password, malformed JSON around a password, a token with the wrong signature
    expect(
      (await post('/user/login', JSON.stringify({ username: OPERATOR.username, password: WRONG }))).status,
    ).toBe(401);
    const broken = await post('/user/login', `{"username":"ops","password":"${OPERATOR.password}"`);
    expect(broken.status).toBe(400);
    expect(await broken.text()).not.toContain(OPERATOR.password);
    const broken2 = await post('/user/login', `{"username":"ops","password":"${WRONG}",}`);
    expect(await broken2.text()).not.toContain(WRONG);
    expect(
      (await fetch(`${admin.url}/user/info`, { headers: { authorization: `Bearer ${token}x` } })).status,
    ).toBe(401);
    // the reader's login-code exchange carries the mini-program secret and a one-time code in the query
    const ex = await fetch(`${reader.url}/openId/get?appId=wx-test&code=${LOGIN_CODE}&secret=${APP_SECRET}`);
    expect(ex.status).toBe(502);
    expect(await ex.text()).not.toContain(APP_SECRET);

    await admin.kill('SIGTERM');
    await reader.kill('SIGTERM');
    const lines = [...admin.output, ...reader.output];
    // each of the 12 requests above wrote its one line, and SIGTERM flushed them all
    expect(lines.filter((l) => l.includes('"msg":"request completed"'))).toHaveLength(12);
    const text = lines.join('\n');
    const leaks = Object.entries({
      password: OPERATOR.password,
      wrongPassword: WRONG,
      token,
      tokenSignature: token.split('.')[2]!,
      appSecret: APP_SECRET,
      loginCode: LOGIN_CODE,
    })
      .filter(([, secret]) => text.includes(secret))
      .map(([name, secret]) => `${name}: ${lines.find((l) => l.includes(secret))?.slice(0, 300)}`);
    recordFigures('logs', { lines: lines.length, leaks: leaks.length });
    expect(leaks).toEqual([]);
  }, 120_000);
});
