import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading } from './support/page-actions';
import { seedLibrary } from './support/seed';

/** A phone held upright (an iPhone 12-15's CSS pixels). */
const PHONE = { width: 390, height: 844 };

/** Nothing of the page reaches past the window's right edge (no sideways scroll of the whole page). */
const pageFitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Elements wider than the window or starting left of it, or ending past its right edge. */
const overflowing = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const width = window.innerWidth;
    return [...document.querySelectorAll(sel)]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && (box.left < -1 || box.right > width + 1))
      .map(({ el, box }) => `${el.tagName.toLowerCase()}.${el.className} ${box.left}..${box.right}`);
  }, selector);

describe.skipIf(!HAVE_BROWSER)('the console on a phone', () => {
  const s = consoleSuite({ seed: seedLibrary, context: { viewport: PHONE, isMobile: true, hasTouch: true } });

  it('the menu folds into a drawer opened from a one-line header; the page takes the width', async () => {
    const page = s.page;
    await s.openLoggedIn('dashboard');
    await heading(page, 'Dashboard');
    expect(await page.locator('.el-aside').count()).toBe(0);
    const header = await page.locator('.el-header').boundingBox();
    expect(header?.height).toBeLessThanOrEqual(60);
    const main = await page.locator('#main').boundingBox();
    expect(main?.x).toBe(0);
    expect(main?.width).toBe(PHONE.width);

    const menu = page.locator('[data-test=menu-button]');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    const drawer = page.locator('[data-test=menu-drawer]');
    await drawer.getByRole('link', { name: 'Books' }).click();
    await heading(page, 'Books');
    await drawer.waitFor({ state: 'hidden' });
    expect(await pageFitsWidth(page)).toBe(true);
  });

  it('dashboard: cards, tables and charts fit the window, the charts drawn to its width', async () => {
    const page = s.page;
    await s.openLoggedIn('dashboard');
    await heading(page, 'Dashboard');
    for (const chart of ['user-trend', 'view-trend', 'category-chart', 'top-books-chart', 'word-cloud'])
      await page.locator(`[data-test=${chart}] svg`).waitFor();
    await page.locator('[data-test=map-chart] svg').waitFor();
    expect(
      await overflowing(
        page,
        '.el-card, [data-test$=chart], [data-test=word-cloud], [data-test=user-trend], [data-test=view-trend], svg',
      ),
    ).toEqual([]);
    // the charts were resized to their box, not drawn at a desktop width and cut
    const widths = await page
      .locator('[data-test=user-trend] svg, [data-test=category-chart] svg')
      .evaluateAll((svgs) => svgs.map((svg) => svg.getBoundingClientRect().width));
    for (const w of widths) expect(w).toBeLessThan(PHONE.width);
    expect(await pageFitsWidth(page)).toBe(true);
  });

  it('books: the toolbar wraps, the table scrolls sideways inside the page with its columns readable', async () => {
    const page = s.page;
    await s.openLoggedIn('books');
    await heading(page, 'Books');
    const table = page.locator('[data-test=book-table]');
    const title = table.locator('.el-table__body tr').first().locator('td').nth(1);
    await title.waitFor();
    // the title column is on screen, not hidden behind the pinned actions
    const box = await title.boundingBox();
    expect(box && box.x + box.width / 2).toBeLessThan(PHONE.width);
    expect(await title.isVisible()).toBe(true);
    const scroller = table.locator('.el-scrollbar__wrap').first();
    const scroll = await scroller.evaluate((el) => ({ inner: el.scrollWidth, outer: el.clientWidth }));
    expect(scroll.inner).toBeGreaterThan(scroll.outer);
    expect(await overflowing(page, '.toolbar, .toolbar > *, .pager')).toEqual([]);
    expect(await pageFitsWidth(page)).toBe(true);
  });

  it('edit: one column, the form and its buttons within the window', async () => {
    const page = s.page;
    await s.openLoggedIn('books');
    await page
      .locator('[data-test=book-table]')
      .getByRole('link', { name: /^Edit: / })
      .first()
      .click();
    await heading(page, 'Edit book');
    await page.locator('#edit-title').waitFor();
    expect(await overflowing(page, '.book-editor > *, .el-form-item, [data-test=save-book]')).toEqual([]);
    expect(await pageFitsWidth(page)).toBe(true);
  });
});
