import { makeEpub } from '@readlib/epub/testing';
import type { AdminClient } from '@readlib/sdk';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading } from './support/page-actions';
import { addBook, clients } from './support/seed';
import { OPERATOR } from './support/services';

/**
 * Markup that runs script wherever it is parsed as HTML or used as a link: each would push its name
 * onto `window.__xss`. Short enough for every field it is planted in (provinces take 64 characters).
 */
const PLANT = {
  img: `<img src=x onerror=__xss.push('img')>`,
  script: `<script>__xss.push('script')</script>`,
  svg: `<svg onload=__xss.push('svg')>`,
  link: `javascript:__xss.push('link')`,
} as const;

/** A book whose metadata and table of contents are all markup, with a cover. */
const HOSTILE_BOOK = makeEpub({
  title: `${PLANT.img} ${PLANT.link}`,
  creators: [PLANT.script],
  publisher: PLANT.svg,
  cover: true,
  chapters: [
    { title: PLANT.img, fileName: 'one.xhtml' },
    { title: PLANT.svg, fileName: 'two.xhtml', children: [{ title: PLANT.script, fileName: 'three.xhtml' }] },
  ],
});
const TITLE = `${PLANT.img} ${PLANT.link}`;
const CATEGORY = PLANT.svg;

/** Nothing planted ran, and no element or handler came out of it. */
async function nothingRan(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => ({
    ran: (window as unknown as { __xss: string[] }).__xss,
    elements: document.querySelectorAll(
      'img[src="x"], [onerror], [onload], [href^="javascript:"], [src^="javascript:"]',
    ).length,
    scripts: [...document.scripts].filter((s) => s.textContent?.includes('__xss')).length,
  }));
  expect(found, where).toEqual({ ran: [], elements: 0, scripts: 0 });
}

/** The page shows each text literally (as characters, SVG text of the charts included). */
async function showsLiterally(page: Page, scope: string, texts: string[]): Promise<void> {
  for (const text of texts) {
    await page.waitForFunction(
      ([selector, wanted]) => (document.querySelector(selector!)?.textContent ?? '').includes(wanted!),
      [scope, text],
    );
  }
}

describe.skipIf(!HAVE_BROWSER)('text from readers and books never runs in the operator’s browser', () => {
  const s = consoleSuite();
  let admin: AdminClient;

  beforeAll(async () => {
    const c = await clients(s.services);
    admin = c.admin;
    const fileName = await addBook(admin, HOSTILE_BOOK, { categoryText: CATEGORY });
    // readers from untrusted profiles, reading the book and searching for markup
    const readers = [
      { openId: 'x-1', province: PLANT.img, city: PLANT.script },
      { openId: 'x-2', province: PLANT.svg, city: PLANT.link },
      { openId: 'x-3', province: '广东', city: '深圳' },
    ];
    for (const r of readers) {
      await c.reader.registerUser({
        openId: r.openId,
        province: r.province,
        city: r.city,
        nickName: PLANT.img,
      });
      await c.reader.getBookDetail({ fileName, openId: r.openId });
    }
    // a plain keyword searched most, so the planted ones are drawn small enough to fit the cloud
    for (const openId of ['x-1', 'x-2', 'x-3'])
      await c.reader.searchBooks({ keyword: 'plain words', openId });
    for (const keyword of Object.values(PLANT)) await c.reader.searchBooks({ keyword, openId: 'x-1' });
    // the operator's own profile
    await s.services.h.db
      .updateTable('operators')
      .set({ nickname: PLANT.svg, avatar: PLANT.link })
      .where('username', '=', OPERATOR.username)
      .execute();
  });

  for (const csp of ['enforced', 'bypassed'] as const) {
    it(`shows every planted text as text on every page (Content-Security-Policy ${csp})`, async () => {
      // bypassed: escaping alone must hold, whatever the policy would have blocked
      const page = await s.newPage({ bypassCSP: csp === 'bypassed' });
      await page.addInitScript(() => {
        (window as unknown as { __xss: string[] }).__xss = [];
      });

      await s.openLoggedIn('dashboard', page);
      await heading(page, 'Dashboard');
      await page.locator('[data-test=word-cloud] svg').waitFor();
      await page.locator('[data-test=map-chart] svg').waitFor();
      const keywords = (await admin.getWordCloud()).map((w) => w.word);
      expect(keywords).toEqual(expect.arrayContaining(Object.values(PLANT)));
      await showsLiterally(page, '[data-test=top-books]', [TITLE]);
      await showsLiterally(page, '[data-test=top-searches]', Object.values(PLANT));
      await showsLiterally(page, '[data-test=word-cloud]', Object.values(PLANT));
      await showsLiterally(page, '[data-test=unplaced-regions]', Object.values(PLANT));
      await showsLiterally(page, '[data-test=operator-name]', [PLANT.svg]);
      // a tooltip is drawn by the chart, as text: hover the planted word of the cloud
      const planted = page.locator('[data-test=word-cloud] text', { hasText: PLANT.img }).first();
      await planted.hover();
      await page.waitForFunction(
        (word) =>
          [...document.querySelectorAll('[data-test=word-cloud] text')].filter((t) =>
            t.textContent?.includes(word),
          ).length > 1,
        PLANT.img,
      );
      await nothingRan(page, 'dashboard');

      await page.getByRole('link', { name: 'Books', exact: true }).click();
      await heading(page, 'Books');
      await showsLiterally(page, '[data-test=book-table]', [TITLE, PLANT.script, PLANT.svg]);
      await page.getByRole('button', { name: `Delete: ${TITLE}` }).click();
      await page.getByRole('dialog').getByText(TITLE, { exact: false }).waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await nothingRan(page, 'books');

      await page.getByRole('link', { name: `Edit: ${TITLE}` }).click();
      await heading(page, 'Edit book');
      await page.locator('[data-test=contents-tree]').waitFor();
      expect(await page.locator('#edit-title').inputValue()).toBe(TITLE);
      expect(await page.locator('[data-test=contents-tree] .el-tree-node__label').allTextContents()).toEqual([
        PLANT.img,
        PLANT.svg,
        PLANT.script,
      ]);
      // nested as in the book: the third entry sits under the second
      const nested = page.locator('[data-test=contents-tree] .el-tree-node__children .el-tree-node__label');
      expect(await nested.allTextContents()).toEqual([PLANT.script]);
      await nothingRan(page, 'edit');

      await page.getByRole('link', { name: 'Upload', exact: true }).click();
      await heading(page, 'Upload an EPUB');
      await page
        .locator('[data-test=upload-drop] input[type=file]')
        .setInputFiles({ name: 'hostile.epub', mimeType: 'application/epub+zip', buffer: HOSTILE_BOOK });
      await page.getByRole('heading', { name: 'Parsed book' }).waitFor();
      expect(await page.locator('#upload-author').inputValue()).toBe(PLANT.script);
      await showsLiterally(page, '[data-test=contents-tree]', [PLANT.img, PLANT.svg, PLANT.script]);
      await nothingRan(page, 'upload');

      await page.getByRole('link', { name: 'Categories', exact: true }).click();
      // the parsed book is not in the catalogue: leaving it asks first
      await page.getByRole('dialog').getByRole('button', { name: 'Leave', exact: true }).click();
      await heading(page, 'Categories');
      await showsLiterally(page, '[data-test=category-table]', [CATEGORY]);
      await nothingRan(page, 'categories');

      await page.getByRole('link', { name: 'Profile', exact: true }).click();
      await heading(page, 'My profile');
      await showsLiterally(page, '[data-test=profile-nickname]', [PLANT.svg]);
      // a javascript: avatar is not used as an image address
      expect(await page.locator('[data-test=profile] img, .profile img').count()).toBe(0);
      await nothingRan(page, 'profile');
    });
  }
});
