import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, heading, logInWithForm } from './support/page-actions';
import { seedLibrary } from './support/seed';
import { JWT_SECRET, OPERATOR } from './support/services';
import { SHORT_LIVED_TOKENS, untilTokenExpired } from './support/token-expiry';

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** A token signed with the services' secret that expired a minute ago. */
function expiredToken(): string {
  const now = Math.floor(Date.now() / 1000);
  const body = { sub: '1', username: OPERATOR.username, iat: now - 120, exp: now - 60 };
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(body))}`;
  return `${head}.${b64url(createHmac('sha256', JWT_SECRET).update(head).digest())}`;
}

describe.skipIf(!HAVE_BROWSER)('the session: a token refused anywhere leads to login, then back', () => {
  const s = consoleSuite({ seed: seedLibrary });

  it('a page opened without a token asks for login first, then shows that page', async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}books?author=Odd`);
    await page.waitForURL(/\/console\/login\?redirect=\/books\?author=Odd$/);
    await logInWithForm(page);
    await page.waitForURL(/\/console\/books\?author=Odd$/);
    await heading(page, 'Books');
    expect(await page.getByRole('textbox', { name: 'Author' }).inputValue()).toBe('Odd');
  });

  it('a wrong password is refused in words; logging out forgets the token and has the service refuse it', async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}login`);
    await logInWithForm(page, { username: OPERATOR.username, password: 'not the password' });
    await page.getByRole('alert').getByText('Wrong username or password.').waitFor();
    expect(page.url()).toMatch(/\/console\/login$/);

    await logInWithForm(page);
    await heading(page, 'Dashboard');
    const token = await page.evaluate(() => sessionStorage.getItem('readlib.console.token'));
    const info = () =>
      fetch(`${s.services.adminUrl}/user/info`, { headers: { authorization: `Bearer ${token}` } });
    expect((await info()).status).toBe(200);
    const loggedOut = answered(page, '/user/logout');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/console\/login$/);
    expect(await page.evaluate(() => sessionStorage.getItem('readlib.console.token'))).toBeNull();
    expect(await (await loggedOut).json()).toEqual({ code: 0, msg: 'success', data: null });
    const refused = await info();
    expect([refused.status, (await refused.json()).code]).toEqual([401, -2]);
    await page.goto(`${s.services.consoleUrl}profile`);
    await page.waitForURL(/\/console\/login\?redirect=\/profile$/);
  });

  it('a redirect to another site after login is ignored', async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}login?redirect=//evil.example/steal`);
    await logInWithForm(page);
    await page.waitForURL(/\/console\/dashboard$/);
  });
});

describe.skipIf(!HAVE_BROWSER)('a token that expires while the operator works', () => {
  // tokens are short-lived here, so one expires for real during the test
  const s = consoleSuite({ env: SHORT_LIVED_TOKENS });

  it('the next call (401, code -2) returns to login, which returns to the same page', async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}categories`);
    await logInWithForm(page);
    await heading(page, 'Categories');
    await untilTokenExpired(page);
    const refused = answered(page, '/book/list');
    await page.getByRole('link', { name: 'Books', exact: true }).click();
    expect((await refused).status()).toBe(401);
    await page.waitForURL(/\/console\/login\?redirect=\/books&expired=1$/);
    await page.getByText('Your session has ended: log in again to go on.').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('readlib.console.token'))).toBeNull();

    const listed = answered(page, '/book/list');
    await logInWithForm(page);
    await page.waitForURL(/\/console\/books$/);
    expect((await listed).status()).toBe(200);
    await heading(page, 'Books');
  });

  it('a stored token that has expired is refused at the first call after a reload, and login returns there', async () => {
    const page = s.page;
    await s.openLoggedIn('categories');
    await heading(page, 'Categories');
    await page.evaluate((t) => sessionStorage.setItem('readlib.console.token', t), expiredToken());
    await page.reload();
    await page.waitForURL(/\/console\/login\?redirect=\/categories&expired=1$/);
    await logInWithForm(page);
    await page.waitForURL(/\/console\/categories$/);
    await heading(page, 'Categories');
  });
});
