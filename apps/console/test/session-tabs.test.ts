import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { zhCN } from '../src/i18n/zh-cn.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading, logInWithForm } from './support/page-actions';
import { clients } from './support/seed';
import type { Services } from './support/services';
import { SHORT_LIVED_TOKENS, untilTokenExpired } from './support/token-expiry';

const BOOK = { fileName: 'tabs_book', title: 'A Book Opened in Tabs', author: 'Tab Author' };

async function seed(s: Services): Promise<void> {
  const { admin } = await clients(s);
  await admin.createBook(BOOK);
}

/** The token this tab keeps, and whether any of the page's storage outlives the tab with it. */
const kept = (page: Page) =>
  page.evaluate(() => {
    const token = sessionStorage.getItem('readlib.console.token');
    const lasting = Object.keys(localStorage).map((key) => localStorage.getItem(key) ?? '');
    return { token, inLocalStorage: token !== null && lasting.some((value) => value.includes(token)) };
  });

describe.skipIf(!HAVE_BROWSER)('one login for the console tabs of a browser', () => {
  const s = consoleSuite({ seed });

  it('a book opened in a new tab, and an address pasted in another, are shown without a login', async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}books`);
    await logInWithForm(page);
    await page.waitForURL(/\/console\/books$/);
    await page.locator('[data-test=book-table]').getByText(BOOK.title).waitFor();

    // a middle click on the book's Edit link
    const opened = s.context.waitForEvent('page');
    await page.getByRole('link', { name: `Edit: ${BOOK.title}` }).click({ button: 'middle' });
    const tab = await opened;
    await heading(tab, 'Edit book');
    expect(await tab.locator('#edit-title').inputValue()).toBe(BOOK.title);
    expect(tab.url()).not.toContain('token');

    const pasted = await s.context.newPage();
    await pasted.goto(`${s.services.consoleUrl}categories`);
    await heading(pasted, 'Categories');
    expect(pasted.url()).toMatch(/\/console\/categories$/);
    // the token stays in each tab's session storage: nothing of it is written where it would outlive the tabs
    const [first, third] = [await kept(page), await kept(pasted)];
    expect(first.token).toBeTruthy();
    expect(third.token).toBe(first.token);
    expect(first.inLocalStorage || third.inLocalStorage).toBe(false);
  });

  it('logging out in one tab logs out the others; logging in again in one takes the others back', async () => {
    const page = s.page;
    await s.openLoggedIn('dashboard');
    await heading(page, 'Dashboard');
    const other = await s.context.newPage();
    await other.goto(`${s.services.consoleUrl}books?author=Tab`);
    await heading(other, 'Books');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/console\/login$/);
    await other.waitForURL(/\/console\/login\?redirect=\/books\?author=Tab&expired=1$/);
    expect((await kept(other)).token).toBeNull();

    // the login in the first tab: the second goes on to the list it was showing
    await logInWithForm(page);
    await heading(page, 'Dashboard');
    await other.waitForURL(/\/console\/books\?author=Tab$/);
    await heading(other, 'Books');
    expect((await kept(other)).token).toBe((await kept(page)).token);
  });

  it('with every console tab closed, a new tab asks for the login (a shared computer)', async () => {
    const page = s.page;
    await s.openLoggedIn('dashboard');
    await heading(page, 'Dashboard');
    await page.close();
    const later = await s.context.newPage();
    await later.goto(`${s.services.consoleUrl}books`);
    await later.waitForURL(/\/console\/login\?redirect=\/books$/);
  });

  it('in Chinese: a new tab opens signed in, and a logout elsewhere lands it on the login page in Chinese', async () => {
    const page = await s.newPage({ locale: 'zh-CN' });
    await s.openLoggedIn('books', page);
    await heading(page, zhCN.books.title);
    const tab = await page.context().newPage();
    await tab.goto(`${s.services.consoleUrl}books/${BOOK.fileName}/edit`);
    await heading(tab, zhCN.edit.title);
    await page.getByRole('button', { name: zhCN.app.logout }).click();
    await tab.waitForURL(/\/console\/login\?redirect=/);
    await tab.getByText(zhCN.login.expired).waitFor();
  });
});

describe.skipIf(!HAVE_BROWSER)('a token past its expiry is not handed to a new tab', () => {
  // tokens are short-lived here, so the open tab's token expires for real during the test
  const s = consoleSuite({ seed, env: SHORT_LIVED_TOKENS });

  it('the open tab has an expired token: a new tab asks for the login, and is not told of an ended session', async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}categories`);
    await logInWithForm(page);
    await heading(page, 'Categories');
    await untilTokenExpired(page);
    const later = await s.context.newPage();
    const calls: string[] = [];
    later.on('request', (request) => {
      if (!new URL(request.url()).pathname.startsWith('/console/')) calls.push(request.url());
    });
    await later.goto(`${s.services.consoleUrl}books`);
    // the login page as for a first visit: no call was refused, so no "your session has ended"
    await later.waitForURL(/\/console\/login\?redirect=\/books$/);
    expect(calls).toEqual([]);
    // the open tab said it had no token to give: the new one did not wait out the 3 s it gives a
    // signed-in tab to answer. Counted on the page's own clock from when its scripts had run (module
    // scripts run before DOMContentLoaded), so a slow download or parse on a loaded machine is not in it
    const sinceScripts = await later.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      return performance.now() - (navigation?.domContentLoadedEventStart ?? 0);
    });
    expect(sinceScripts).toBeLessThan(3_000);
  });
});
