import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.messages';
import { zhCN } from '../src/i18n/zh-cn.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, choose, columnTexts, heading } from './support/page-actions';
import { clients } from './support/seed';
import type { Services } from './support/services';

/** Book records (no files: the list is all these tests read), titles in two series of different sizes. */
const BOOKS = Array.from({ length: 36 }, (_, i) => ({
  fileName: `list_${String(i + 1).padStart(2, '0')}`,
  title: `${i % 3 === 0 ? 'Rare' : 'Common'} List Volume ${String(i + 1).padStart(2, '0')}`,
  author: `Author ${String.fromCharCode(65 + (i % 26))}`,
  publisher: `Press ${String(36 - i).padStart(2, '0')}`,
  // one category named as a large catalogue's are, in one word
  categoryText: i === 0 ? 'ComputerScience' : i % 3 === 0 ? 'Poetry Shelf' : 'Prose Shelf',
}));
const COMMON = BOOKS.filter((b) => b.title.startsWith('Common')).length;
/** The first title of the second page of 10, sorted by title. */
const PAGE_2_FIRST = BOOKS.map((b) => b.title).sort()[10]!;

async function seed(s: Services): Promise<void> {
  const { admin } = await clients(s);
  for (const book of BOOKS) await admin.createBook(book);
}

/** The list requests the page sends from now on. */
function listRequests(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname === '/book/list') sent.push(url.search);
  });
  return sent;
}

/** The sort a header's arrows show: 'ascending', 'descending' or ''. */
const headerSort = (table: Locator, name: string) =>
  table
    .locator('th', { hasText: name })
    .first()
    .evaluate((th) =>
      th.classList.contains('ascending')
        ? 'ascending'
        : th.classList.contains('descending')
          ? 'descending'
          : '',
    );

describe.skipIf(!HAVE_BROWSER)('the books list', () => {
  const s = consoleSuite({ seed });

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const)
    for (const [locale, texts] of [
      ['en-US', en],
      ['zh-CN', zhCN],
    ] as const)
      it(`toolbar: one line at ${width}×${height} (${locale}), the upload button beside the heading`, async () => {
        const page = await s.newPage({ locale, viewport: { width, height } });
        await s.openLoggedIn('books', page);
        await heading(page, texts.books.title);
        const toolbar = page.locator('[data-test=book-toolbar]');
        await toolbar.waitFor();
        // every field and button on one line: their tops within a pixel or two of each other
        const tops = await toolbar
          .locator('.el-input, .el-select, .el-button')
          .evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
        expect(tops.length).toBe(7);
        expect(Math.max(...tops) - Math.min(...tops), `tops ${tops.join(' ')}`).toBeLessThanOrEqual(2);
        // the sort sits at the right end of the line, the title field takes more room than on a phone
        const line = await toolbar.boundingBox();
        const sort = await toolbar.locator('[data-test=sort-direction]').boundingBox();
        expect(line && sort && Math.abs(line.x + line.width - (sort.x + sort.width))).toBeLessThanOrEqual(2);
        const title = await toolbar.locator('input[name=title]').boundingBox();
        expect(title?.width).toBeGreaterThanOrEqual(160);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
        // the upload button on the heading's line, in the first screen
        const upload = page.getByRole('link', { name: texts.books.uploadNew });
        const [h1, button] = [await page.locator('h1').boundingBox(), await upload.boundingBox()];
        expect(h1 && button && Math.abs(h1.y + h1.height / 2 - (button.y + button.height / 2))).toBeLessThan(
          8,
        );
        // no category chosen reads "any category", not the select's bare placeholder
        expect((await toolbar.locator('[data-test=category-filter]').textContent())?.trim()).toBe(
          texts.books.anyCategory,
        );
      });

  it('a page past the end (an old bookmark) opens the last page, its query kept', async () => {
    const page = s.page;
    const sent = listRequests(page);
    await s.openLoggedIn('books?page=99&pageSize=10&title=Common', page);
    const last = Math.ceil(COMMON / 10);
    await page.waitForURL((url) => url.searchParams.get('page') === String(last));
    const table = page.locator('[data-test=book-table]');
    await table.getByText('Common List Volume').first().waitFor();
    expect(new URL(page.url()).searchParams.get('title')).toBe('Common');
    const rows = await table.locator('.el-table__body tr').count();
    expect(rows).toBe(COMMON - (last - 1) * 10);
    expect(await page.locator('.el-pager li.is-active').textContent()).toBe(String(last));
    // the page past the end, then the last page: one request each
    expect(sent.map((q) => new URLSearchParams(q).get('page'))).toEqual(['99', String(last)]);
  });

  it("a wide window gives a category's name the room to read on one line", async () => {
    const page = await s.newPage({ viewport: { width: 1920, height: 1080 } });
    await s.openLoggedIn('books?category=ComputerScience', page);
    const cell = page.locator('[data-test=book-table] .el-table__body tr td:nth-child(6) .cell').first();
    await cell.getByText('ComputerScience').waitFor();
    const lines = await cell.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBe(1);
  });

  it('the headers show the sort the list has, however it was chosen, one request each time', async () => {
    const page = s.page;
    const sent = listRequests(page);
    await s.openLoggedIn('books?sort=%2Btitle&page=2&pageSize=10');
    await heading(page, 'Books');
    const table = page.locator('[data-test=book-table]');
    // opened sorted by title: its header says so, and the page asked for stays (no return to page 1)
    await table.getByText(PAGE_2_FIRST).waitFor();
    expect(await headerSort(table, 'Title')).toBe('ascending');
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await page.waitForTimeout(300);
    expect(sent).toHaveLength(1);

    // the sort selects move the arrows
    let listed = answered(page, '/book/list', { sort: '+publisher' });
    await choose(page, page.locator('[data-test=sort-field]'), 'Publisher');
    await listed;
    await page.waitForFunction(() =>
      document.querySelector('[data-test=book-table] th.ascending')?.textContent?.includes('Publisher'),
    );
    expect(await headerSort(table, 'Title')).toBe('');
    listed = answered(page, '/book/list', { sort: '-publisher' });
    await choose(page, page.locator('[data-test=sort-direction]'), 'Descending');
    await listed;
    await page.waitForFunction(() =>
      document.querySelector('[data-test=book-table] th.descending')?.textContent?.includes('Publisher'),
    );
    expect(await columnTexts(table, 4)).toEqual([
      'Press 36',
      'Press 35',
      'Press 34',
      'Press 33',
      'Press 32',
      'Press 31',
      'Press 30',
      'Press 29',
      'Press 28',
      'Press 27',
    ]);

    // a field without a column: no arrow anywhere
    listed = answered(page, '/book/list', { sort: '-createdAt' });
    await choose(page, page.locator('[data-test=sort-field]'), en.books.fields.createdAt);
    await listed;
    await page.waitForFunction(
      () =>
        !document.querySelector('[data-test=book-table] th.ascending, [data-test=book-table] th.descending'),
    );

    // a header sorts, and the selects follow
    listed = answered(page, '/book/list', { sort: '+author' });
    await table.locator('th', { hasText: 'Author' }).locator('.sort-caret.ascending').click();
    await listed;
    await page.locator('[data-test=sort-field]').getByText('Author', { exact: true }).waitFor();
    await page.waitForTimeout(300);
    // one request per choice: the opening, three selects, one header
    expect(sent, sent.join('\n')).toHaveLength(5);
  });

  it('an answer the operator no longer waits for never replaces the one asked after it', async () => {
    const page = s.page;
    await s.openLoggedIn('books');
    await heading(page, 'Books');
    await page.locator('[data-test=book-total]').getByText(`${BOOKS.length} books`).waitFor();
    // the answer for "Rare" is held back: the operator has meanwhile asked for "Common"
    const rare = /\/book\/list\?.*title=Rare/;
    await page.route(rare, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue().catch(() => {});
    });
    const rareEnded = new Promise<void>((resolve) => {
      const done = (request: Request) => rare.test(request.url()) && resolve();
      page.on('requestfinished', done);
      page.on('requestfailed', done);
    });
    const title = page.getByRole('textbox', { name: 'Title' });
    await title.fill('Rare');
    await title.press('Enter');
    await page.waitForTimeout(100);
    const common = answered(page, '/book/list', { title: 'Common' });
    await title.fill('Common');
    await title.press('Enter');
    await common;
    const total = page.locator('[data-test=book-total]');
    await total.getByText(`${COMMON} books`).waitFor();
    await rareEnded;
    await page.waitForTimeout(300);
    expect((await total.textContent())?.trim()).toBe(`${COMMON} books`);
    const titles = await columnTexts(page.locator('[data-test=book-table]'), 2);
    expect(titles).toHaveLength(20);
    for (const t of titles) expect(t).toMatch(/^Common /);
    expect(await page.locator('[data-test=book-table] .el-loading-mask').isVisible()).toBe(false);
  });
});
