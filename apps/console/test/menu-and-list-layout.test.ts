import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.messages';
import { zhCN } from '../src/i18n/zh-cn.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading } from './support/page-actions';
import { clients } from './support/seed';
import type { Services } from './support/services';

/** A file name as the service makes one at upload. */
const FILE_NAME = 'b_efa5d52c109229e4';

async function seed(s: Services): Promise<void> {
  const { admin } = await clients(s);
  await admin.createBook({
    fileName: FILE_NAME,
    title: 'A Fairly Long Title of a Book in the List',
    author: 'Someone Withalongname',
    publisher: 'Some Publisher House',
    language: 'en',
    categoryText: 'ComputerScience',
  });
}

/** The menu entry shown as the page the operator is on: its text, and its aria-current. */
const currentEntry = (menu: Locator) =>
  menu
    .locator('a.active')
    .evaluateAll((links) => links.map((a) => `${a.textContent?.trim()} ${a.getAttribute('aria-current')}`));

describe.skipIf(!HAVE_BROWSER)('where the operator is, and a file name read whole', () => {
  // a common laptop's window
  const s = consoleSuite({ seed, context: { viewport: { width: 1366, height: 768 } } });

  it("a book's edit page is under Books in the menu, the sidebar's and the phone drawer's", async () => {
    const page = s.page;
    await s.openLoggedIn(`books/${FILE_NAME}/edit`);
    await heading(page, 'Edit book');
    const sidebar = page.locator('.el-aside nav');
    expect(await currentEntry(sidebar)).toEqual(['Books true']);
    await sidebar.getByRole('link', { name: 'Upload' }).click();
    await heading(page, 'Upload an EPUB');
    expect(await currentEntry(sidebar)).toEqual(['Upload page']);

    const phone = await s.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await s.openLoggedIn(`books/${FILE_NAME}/edit`, phone);
    await heading(phone, 'Edit book');
    await phone.locator('[data-test=menu-button]').click();
    const drawer = phone.locator('[data-test=menu-drawer] nav');
    await drawer.getByRole('link', { name: 'Books' }).waitFor();
    expect(await currentEntry(drawer)).toEqual(['Books true']);
  });

  it('at 1366 px the file name is on one line, whole, clear of the pinned actions', async () => {
    const page: Page = s.page;
    await s.openLoggedIn('books');
    await heading(page, 'Books');
    const table = page.locator('[data-test=book-table]');
    const cell = table.locator('.el-table__body-wrapper td', { hasText: FILE_NAME }).first();
    await cell.waitFor();
    const shown = await cell.evaluate((td) => {
      const inner = td.querySelector('.cell')!;
      const range = document.createRange();
      range.selectNodeContents(inner);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      const actions = td.closest('tr')!.querySelector('.el-table-fixed-column--right')!;
      return {
        text: inner.textContent?.trim(),
        lines: lines.size,
        cut: inner.scrollWidth > inner.clientWidth,
        right: td.getBoundingClientRect().right,
        actionsLeft: actions.getBoundingClientRect().left,
      };
    });
    expect(shown.text).toBe(FILE_NAME);
    expect(shown.lines, 'one line').toBe(1);
    expect(shown.cut, 'nothing of it cut').toBe(false);
    expect(shown.right, 'not under the pinned actions').toBeLessThanOrEqual(shown.actionsLeft + 1);
  });

  // a 1280 px laptop, and the same beside a classic 17 px scroll bar (headless Chromium draws none)
  for (const width of [1280, 1263])
    for (const [locale, texts] of [
      ['en-US', en],
      ['zh-CN', zhCN],
    ] as const)
      it(`at ${width} px (${locale}) nothing scrolls under the pinned actions, every header reads whole`, async () => {
        const page = await s.newPage({ locale, viewport: { width, height: 720 } });
        await s.openLoggedIn('books', page);
        await heading(page, texts.books.title);
        const table = page.locator('[data-test=book-table]');
        await table.locator('.el-table__body-wrapper td', { hasText: FILE_NAME }).waitFor();
        const layout = await table.evaluate((el) => {
          const wrap = el.querySelector('.el-table__body-wrapper .el-scrollbar__wrap')!;
          const row = el.querySelector('.el-table__body tr')!;
          const cells = [...row.querySelectorAll('td')];
          const pinned = row.querySelector('.el-table-fixed-column--right')!.getBoundingClientRect();
          const heads = [...el.querySelectorAll('.el-table__header th .cell')];
          const cut = (cell: Element) => cell.scrollWidth > cell.clientWidth;
          return {
            scrolls: wrap.scrollWidth > wrap.clientWidth,
            under: cells
              .filter((td) => !td.classList.contains('el-table-fixed-column--right'))
              .filter((td) => td.getBoundingClientRect().right > pinned.left + 1)
              .map((td) => td.textContent?.trim()),
            headsCut: heads.filter(cut).map((cell) => cell.textContent?.trim()),
            headLines: heads.filter((cell) => cell.getBoundingClientRect().height > 30).length,
            fileNameCut: cut(cells[6]!.querySelector('.cell')!),
            aligned: cells.every((td) => {
              const box = td.getBoundingClientRect();
              return Math.abs(box.top - pinned.top) <= 1 && Math.abs(box.height - pinned.height) <= 1;
            }),
          };
        });
        expect(layout.scrolls, 'the table scrolls sideways').toBe(false);
        expect(layout.under, 'cells under the pinned actions').toEqual([]);
        expect(layout.headsCut, 'headers cut').toEqual([]);
        expect(layout.headLines, 'headers on two lines').toBe(0);
        expect(layout.fileNameCut, 'the file name cut').toBe(false);
        expect(layout.aligned, 'the pinned cells level with their row').toBe(true);
      });
});
