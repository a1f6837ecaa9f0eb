import { createOperator } from '@readlib/catalog';
import { makeEpub } from '@readlib/epub/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.messages';
import { zhCN } from '../src/i18n/zh-cn.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading, logInWithForm } from './support/page-actions';
import { clients } from './support/seed';
import { OPERATOR, type Services } from './support/services';
import { SHORT_LIVED_TOKENS, untilTokenExpired } from './support/token-expiry';

const BOOK = { fileName: 'ended_edit', title: 'Edited Across a Login', author: 'Eve Ended' };

async function seed(s: Services): Promise<void> {
  const { admin } = await clients(s);
  await admin.createBook(BOOK);
}

const epub = (title: string) =>
  Buffer.from(makeEpub({ title, creators: ['Sam Session'], chapters: [{ title: 'One' }] }));

async function upload(page: Page, title: string): Promise<void> {
  await page
    .locator('[data-test=upload-drop] input[type=file]')
    .setInputFiles({ name: 'session.epub', mimeType: 'application/epub+zip', buffer: epub(title) });
}

/** The statuses of the answers to requests of this path, in order. */
function statuses(page: Page, path: string): number[] {
  const seen: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === path) seen.push(response.status());
  });
  return seen;
}

const dialog = (page: Page) => page.locator('[data-test=session-dialog]');

/** Opens the dashboard in another tab of the page's browser and logs out there; returns that tab. */
async function logOutInAnotherTab(page: Page, services: Services, messages: typeof en): Promise<Page> {
  const other = await page.context().newPage();
  await other.goto(`${services.consoleUrl}dashboard`);
  await heading(other, messages.dashboard.title);
  await other.getByRole('button', { name: messages.app.logout }).click();
  await other.waitForURL(/\/console\/login$/);
  return other;
}

/** Logs in through the dialog asked over the page. */
async function logInInPlace(page: Page): Promise<void> {
  await page.locator('#session-username').fill(OPERATOR.username);
  await page.locator('#session-password').fill(OPERATOR.password);
  await dialog(page)
    .getByRole('button', { name: /^(Log in|登录)$/ })
    .click();
}

describe.skipIf(!HAVE_BROWSER)('a token that expires while the page holds work', () => {
  // tokens are short-lived here, so each one expires for real during the test
  const s = consoleSuite({ seed, env: SHORT_LIVED_TOKENS });

  it('an upload and then its Add, each refused by an expired token, go through after a login over the page', async () => {
    const page = s.page;
    const uploads = statuses(page, '/book/upload');
    const creates = statuses(page, '/book/create');
    await page.goto(`${s.services.consoleUrl}books/upload`);
    await logInWithForm(page);
    await heading(page, en.upload.title);
    await untilTokenExpired(page);

    await upload(page, 'Kept Through Two Logins');
    await dialog(page).getByText(en.session.body).waitFor();
    expect(page.url()).toMatch(/\/console\/books\/upload$/);
    // the upload waits behind the dialog, which neither Escape nor a click beside it closes
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    expect(await dialog(page).isVisible()).toBe(true);
    expect(await page.locator('[data-test=upload-progress]').count()).toBe(1);

    await logInInPlace(page);
    await page.getByRole('heading', { name: en.upload.parsed }).waitFor();
    await dialog(page).waitFor({ state: 'hidden' });
    expect(uploads).toEqual([401, 200]);

    await page.locator('#upload-title').fill('Kept Through Two Logins, renamed');
    await untilTokenExpired(page);
    await page.locator('[data-test=create-book]').click();
    await dialog(page).getByText(en.session.body).waitFor();
    expect(await page.locator('#upload-title').inputValue()).toBe('Kept Through Two Logins, renamed');
    await logInInPlace(page);
    await heading(page, en.books.title);
    expect(creates).toEqual([401, 200]);
    await page.locator('[data-test=book-table]').getByText('Kept Through Two Logins, renamed').waitFor();
    expect(page.url()).not.toContain('/login');
  });

  it('unsaved edits: a Save refused by an expired token is saved after a login over the page', async () => {
    const page = s.page;
    const updates = statuses(page, '/book/update');
    await s.openLoggedIn(`books/${BOOK.fileName}/edit`);
    await heading(page, en.edit.title);
    await page.locator('#edit-title').fill('Edited Across a Login, saved');
    await untilTokenExpired(page);
    await page.locator('[data-test=save-book]').click();
    await dialog(page).getByText(en.session.body).waitFor();
    await logInInPlace(page);
    await dialog(page).waitFor({ state: 'hidden' });
    await page.waitForFunction(() => !document.querySelector('[data-test=save-book].is-loading'));
    expect(updates).toEqual([401, 200]);
    const { admin } = await clients(s.services);
    expect((await admin.getBook({ fileName: BOOK.fileName })).title).toBe('Edited Across a Login, saved');
  });

  it('a page without work still goes to the login page, then back', async () => {
    const page = s.page;
    await s.openLoggedIn('categories');
    await heading(page, en.nav.categories);
    await untilTokenExpired(page);
    await page.getByRole('link', { name: en.nav.books, exact: true }).click();
    await page.waitForURL(/\/console\/login\?redirect=\/books&expired=1$/);
    expect(await dialog(page).count()).toBe(0);
  });
});

describe.skipIf(!HAVE_BROWSER)('a logout in another tab while the page holds work', () => {
  const s = consoleSuite();

  it('in Chinese: the parsed upload stays under a login dialog, which a login in the other tab answers', async () => {
    const page = await s.newPage({ locale: 'zh-CN' });
    await s.openLoggedIn('books/upload', page);
    await heading(page, zhCN.upload.title);
    await upload(page, 'Parsed Before a Logout');
    await page.getByRole('heading', { name: zhCN.upload.parsed }).waitFor();

    const other = await logOutInAnotherTab(page, s.services, zhCN);

    await dialog(page).getByText(zhCN.session.body).waitFor();
    expect(page.url()).toMatch(/\/console\/books\/upload$/);
    expect(await page.evaluate(() => sessionStorage.getItem('readlib.console.token'))).toBeNull();

    await logInWithForm(other);
    await heading(other, zhCN.dashboard.title);
    await dialog(page).waitFor({ state: 'hidden' });
    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/book/create');
    await page.locator('[data-test=create-book]').click();
    expect((await created).status()).toBe(200);
    await heading(page, zhCN.books.title);
  });

  it("another operator's login over the page: the header names that operator", async () => {
    await createOperator(s.services.h.db, {
      username: 'second',
      password: 'second shift password',
      nickname: 'Second Shift',
    });
    const page = s.page;
    const name = page.locator('[data-test=operator-name]');
    await s.openLoggedIn('books/upload');
    await heading(page, en.upload.title);
    await name.getByText(OPERATOR.username).waitFor();
    await upload(page, 'Parsed Before Another Operator');
    await page.getByRole('heading', { name: en.upload.parsed }).waitFor();

    await (await logOutInAnotherTab(page, s.services, en)).close();

    await dialog(page).getByText(en.session.body).waitFor();
    await page.locator('#session-username').fill('second');
    await page.locator('#session-password').fill('second shift password');
    await dialog(page).getByRole('button', { name: 'Log in' }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    await name.getByText('Second Shift').waitFor();
    expect(await page.getByRole('heading', { name: en.upload.parsed }).count()).toBe(1);
  });

  it('"Go to the login page instead" leaves the upload for the login page, which leads back to an empty upload page', async () => {
    const page = s.page;
    await s.openLoggedIn('books/upload');
    await heading(page, en.upload.title);
    await upload(page, 'Left For the Login Page');
    await page.getByRole('heading', { name: en.upload.parsed }).waitFor();
    await page.evaluate(() => sessionStorage.removeItem('readlib.console.token'));
    await page.route('**/book/create', (route) =>
      route.fulfill({ status: 401, json: { code: -2, msg: 'token expired', data: null } }),
    );
    await page.locator('[data-test=create-book]').click();
    await dialog(page).getByText(en.session.body).waitFor();
    await dialog(page).getByRole('button', { name: en.session.toLoginPage }).click();
    await page.waitForURL(/\/console\/login\?redirect=\/books\/upload&expired=1$/);
    await page.unroute('**/book/create');
    await logInWithForm(page);
    await heading(page, en.upload.title);
    expect(await page.getByRole('heading', { name: en.upload.parsed }).count()).toBe(0);
  });
});
