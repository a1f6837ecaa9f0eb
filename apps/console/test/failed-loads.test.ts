import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.messages';
import { zhCN } from '../src/i18n/zh-cn.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, columnTexts, heading } from './support/page-actions';
import { clients } from './support/seed';
import type { Services } from './support/services';

/** Enough book records for a second page of 10, sorted by title: `Failing Shelf 01` to `12`. */
const SHELF = Array.from({ length: 12 }, (_, i) => `Failing Shelf ${String(i + 1).padStart(2, '0')}`);

async function seed(s: Services): Promise<void> {
  const { admin, reader } = await clients(s);
  for (const [i, title] of SHELF.entries())
    await admin.createBook({ fileName: `failing_${i + 1}`, title, author: 'Fay Fail' });
  await reader.registerUser({ openId: 'failing-reader' });
}

/** What Chromium logs for a request the test aborted. */
const ABORTED = /Failed to load resource: net::ERR_FAILED/;
const listFails = (page: Page) => page.route('**/book/list**', (route) => route.abort());
/** The list's loading mask has gone (while it fades, two can be there at once). */
const listSettled = (page: Page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll('[data-test=book-table] .el-loading-mask')].every(
      (mask) => !mask.checkVisibility(),
    ),
  );

describe.skipIf(!HAVE_BROWSER)('a list or a report that cannot be read', () => {
  const s = consoleSuite({ seed });

  const table = (page: Page) => page.locator('[data-test=book-table]');
  const failure = (page: Page) => table(page).locator('[data-test=load-failed]');

  it('a page of the list that cannot be read shows none of the page before, says why, and Retry reads it', async () => {
    const page = s.page;
    s.expectProblems(ABORTED);
    await s.openLoggedIn('books?sort=%2Btitle&pageSize=10');
    await heading(page, 'Books');
    await table(page).getByText('Failing Shelf 01').waitFor();

    await listFails(page);
    await page.locator('.el-pager li', { hasText: /^2$/ }).click();
    await page.waitForURL(/page=2/);
    await page.getByRole('alert').first().waitFor();
    await listSettled(page);
    // no row of page 1 shown as page 2's, the reason the console gives for an unreachable service
    expect(await columnTexts(table(page), 2)).toEqual([]);
    expect(await failure(page).getByText(en.books.loadFailed).count()).toBe(1);
    expect(await failure(page).textContent()).toContain(en.errors.network);
    expect(await table(page).textContent()).not.toContain(en.books.empty);
    expect(await page.locator('[data-test=book-total]').count()).toBe(0);

    await page.unroute('**/book/list**');
    const listed = answered(page, '/book/list', { page: '2' });
    await failure(page).getByRole('button', { name: en.common.retry }).click();
    expect((await listed).status()).toBe(200);
    await table(page).getByText('Failing Shelf 11').waitFor();
    expect(await columnTexts(table(page), 2)).toEqual(['Failing Shelf 11', 'Failing Shelf 12']);
    await page.locator('[data-test=book-total]').getByText(`${SHELF.length} books`).waitFor();
    expect(await failure(page).count()).toBe(0);
  });

  it("a proxy's error page in place of the list: its status in the operator's words, not its markup", async () => {
    const page = s.page;
    // the 502 the page was answered, as the suite sees it and as the browser logs it
    s.expectProblems(/^HTTP 502 /);
    s.expectProblems(/status of 502 \(Bad Gateway\)/);
    const gatewayPage =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    await page.route('**/book/list**', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: gatewayPage }),
    );
    await s.openLoggedIn('books');
    await failure(page).waitFor();
    const text = await failure(page).textContent();
    expect(text).toContain(en.errors.notTheService.replace('{status}', '502'));
    expect(text).not.toMatch(/<html|<center|Bad Gateway/);
    await page.unroute('**/book/list**');
  });

  it('a first load or a search that cannot be read never says "no book matches" nor "0 books"', async () => {
    const page = s.page;
    s.expectProblems(ABORTED);
    await listFails(page);
    await s.openLoggedIn('books');
    await heading(page, 'Books');
    await page.getByRole('alert').first().waitFor();
    await listSettled(page);
    expect(await table(page).textContent()).not.toContain(en.books.empty);
    expect(await page.locator('[data-test=book-total]').count()).toBe(0);

    expect(await failure(page).textContent()).toContain(en.books.loadFailed);
    await page.unroute('**/book/list**');
    await failure(page).getByRole('button', { name: en.common.retry }).click();
    await page.locator('[data-test=book-total]').getByText(`${SHELF.length} books`).waitFor();

    // a search while the service cannot be reached: the rows of the list before do not stay
    await listFails(page);
    const title = page.getByRole('textbox', { name: 'Title' });
    await title.fill('Alice');
    await title.press('Enter');
    await page.waitForURL(/title=Alice/);
    await page.getByRole('alert').first().waitFor();
    await listSettled(page);
    expect(await columnTexts(table(page), 2)).toEqual([]);
    expect(await failure(page).textContent()).toContain(en.books.loadFailed);
    expect(await table(page).textContent()).not.toContain(en.books.empty);
  });

  it('a report that fails leaves no card "Loading…": each says so, and Retry loads the window again', async () => {
    const page = s.page;
    s.expectProblems(/HTTP 500 .*\/screen\/data|status of 500/);
    await page.route(/\/screen\/data\?/, (route) =>
      route.fulfill({ status: 500, json: { code: -1, msg: 'the report failed', data: null } }),
    );
    await s.openLoggedIn('dashboard');
    await heading(page, 'Dashboard');
    await page.getByRole('alert').first().waitFor();
    const failed = page.locator('[data-test=load-failed]');
    // Activity, User growth, the two trends, categories, most read books, top searches
    await failed.nth(6).waitFor();
    expect(await failed.count()).toBe(7);
    for (const card of await failed.all()) {
      expect(await card.textContent()).toContain(en.dashboard.loadFailed);
      await card.getByRole('button', { name: en.common.retry }).waitFor();
    }
    // the map and the word cloud, which did come, are drawn; nothing waits for ever
    await page.locator('[data-test=map-chart] svg').waitFor();
    await page.locator('.toolbar [role=status]').waitFor({ state: 'detached' });
    expect(await page.locator('main').getByText(en.common.loading, { exact: true }).count()).toBe(0);

    await page.unroute(/\/screen\/data\?/);
    const again = answered(page, '/screen/data', { days: '30' });
    await failed.first().getByRole('button', { name: en.common.retry }).click();
    expect((await again).status()).toBe(200);
    await page.locator('[data-test=user-trend] svg').waitFor();
    await page.locator('[data-test=growth]').waitFor();
    expect(await failed.count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('totals that cannot be read say so in their place, in both languages, and their Retry reads them alone', async () => {
    s.expectProblems(/HTTP 500 .*\/book\/home|status of 500/);
    for (const [locale, texts] of [
      ['en-US', en],
      ['zh-CN', zhCN],
    ] as const) {
      const page = await s.newPage({ locale });
      await page.route(/\/book\/home$/, (route) =>
        route.fulfill({ status: 500, json: { code: -1, msg: 'the totals failed', data: null } }),
      );
      const reports: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/screen/')) reports.push(request.url());
      });
      await s.openLoggedIn('dashboard', page);
      await heading(page, texts.dashboard.title);
      const totals = page.locator('[data-test=totals]');
      const failure = totals.locator('[data-test=load-failed]');
      await failure.getByText(texts.dashboard.totalsFailed).waitFor();
      // why, in the operator's words, with the service's own below it
      expect(await failure.textContent()).toContain('the totals failed');
      expect(await totals.locator('[data-test^=total-]').count()).toBe(0);
      // the window's parts, which did come, are drawn, and say nothing of a failure
      await page.locator('[data-test=user-trend] svg').waitFor();
      expect(await page.locator('[data-test=load-failed]').count()).toBe(1);

      await page.unroute(/\/book\/home$/);
      const asked = reports.length;
      const again = answered(page, '/book/home');
      await failure.getByRole('button', { name: texts.common.retry }).click();
      expect((await again).status()).toBe(200);
      await totals
        .locator('[data-test=total-book]')
        .getByText(String(SHELF.length), { exact: true })
        .waitFor();
      expect(await failure.count()).toBe(0);
      expect(reports.length, 'the window is not asked again').toBe(asked);
    }
  });

  it('the map whose shapes cannot be fetched says so, and its Retry draws it', async () => {
    const page = s.page;
    s.expectProblems(ABORTED);
    const shapes = /\/console\/assets\/china-[^/]*\.js$/;
    await page.route(shapes, (route) => route.abort());
    await s.openLoggedIn('dashboard');
    await heading(page, 'Dashboard');
    const map = page.locator('.el-card', { has: page.getByRole('heading', { name: en.dashboard.map }) });
    const failure = map.locator('[data-test=load-failed]');
    await failure.getByText(en.dashboard.loadFailed).waitFor();
    await page.unroute(shapes);
    await failure.getByRole('button', { name: en.common.retry }).click();
    await map.locator('[data-test=map-chart] svg path').first().waitFor();
    expect(await failure.count()).toBe(0);
  });
});
