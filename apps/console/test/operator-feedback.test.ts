import { readFile } from 'node:fs/promises';
import { makeEpub, makeHostileZip } from '@readlib/epub/testing';
import type { AdminClient } from '@readlib/sdk';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.messages';
import { zhCN } from '../src/i18n/zh-cn.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, choose, heading } from './support/page-actions';
import { REAL_EPUB } from './support/paths';
import { addBook, clients } from './support/seed';
import type { Services } from './support/services';

/** Enough books for a second page of 10. */
const SHELF = Array.from({ length: 12 }, (_, i) => `Feedback Volume ${String(i + 1).padStart(2, '0')}`);
const READERS_TODAY = ['feedback-reader-1', 'feedback-reader-2', 'feedback-reader-3'];

async function seed(s: Services): Promise<void> {
  const { admin, reader } = await clients(s);
  await addBook(admin, await readFile(REAL_EPUB('alice.epub')));
  for (const title of SHELF)
    await addBook(admin, makeEpub({ title, creators: ['Fay Feedback'], chapters: [{ title: 'One' }] }));
  // new users today, none the day before: the day's growth is from zero
  for (const openId of READERS_TODAY) await reader.registerUser({ openId });
}

/** The element's box lies within the window (it is seen without scrolling). */
async function inView(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  const view = page.viewportSize();
  if (!box || !view) return false;
  return box.y >= 0 && box.y + box.height <= view.height && box.x >= 0 && box.x + box.width <= view.width;
}

/** The focus is on the notice, or inside it (a screen reader reads it, Tab goes on from there). */
const focusIn = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

/** The Element Plus alert that holds this text, and the focusable notice around it when there is one. */
const alertWith = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();
const noticeAround = (alert: Locator) =>
  alert.locator('xpath=ancestor-or-self::*[@tabindex="-1"][1]').or(alert).first();

async function uploadInBrowser(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page
    .locator('[data-test=upload-drop] input[type=file]')
    .setInputFiles({ name, mimeType: 'application/epub+zip', buffer });
}

describe.skipIf(!HAVE_BROWSER)('what the operator is told, and where', () => {
  // a laptop's window: a long form's buttons are well below its top
  const s = consoleSuite({ seed, context: { viewport: { width: 1280, height: 720 } } });
  let admin: AdminClient;
  let alice: { fileName: string; title: string };
  beforeAll(async () => {
    ({ admin } = await clients(s.services));
    const [book] = (await admin.listBooks({ title: 'Alice' })).data;
    alice = { fileName: book!.fileName, title: book!.title };
  });

  it('a refused Save is shown where the operator is, focused, in their words', async () => {
    const page = s.page;
    await s.openLoggedIn(`books/${alice.fileName}/edit`);
    await heading(page, 'Edit book');
    await page.locator('#edit-cover').fill('https://elsewhere.example/cover.png');
    const refused = answered(page, '/book/update');
    await page.locator('[data-test=save-book]').click();
    expect((await refused).status()).toBe(400);
    const field = en.edit.fields.cover;
    const alert = alertWith(page, en.errors.invalidField.replace('{field}', field));
    await alert.waitFor();
    expect(await inView(page, alert), 'the refusal is in the window').toBe(true);
    expect(await focusIn(noticeAround(alert)), 'the refusal has the focus').toBe(true);
    // the service's own words stay, as a detail
    expect(await alert.textContent()).toContain('The service says: cover must be empty');
  });

  it('a refused Add to catalogue is shown beside the button; a duplicate is warned of at once', async () => {
    const page = s.page;
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    await uploadInBrowser(page, 'alice-again.epub', await readFile(REAL_EPUB('alice.epub')));
    await page.getByRole('heading', { name: 'Parsed book' }).waitFor();

    // warned as soon as it is parsed, before any create, with the way to the book already there
    const warning = page.locator('[data-test=duplicate-warning]');
    await warning.waitFor();
    expect(await warning.textContent()).toContain(alice.title);
    expect(await warning.getByRole('link').getAttribute('href')).toBe(
      `/console/books/${alice.fileName}/edit`,
    );

    // refused at create anyway: the refusal is seen beside the button
    const refused = answered(page, '/book/create');
    await page.locator('[data-test=create-book]').click();
    expect((await refused).status()).toBe(409);
    const alert = alertWith(page, en.errors.conflict);
    await alert.waitFor();
    expect(await inView(page, alert), 'the refusal is in the window').toBe(true);
    expect(await focusIn(noticeAround(alert)), 'the refusal has the focus').toBe(true);

    // another title: no longer the same book, the warning goes
    await page.locator('#upload-title').fill('Alice, another edition');
    await warning.waitFor({ state: 'detached' });
  });

  it("the service's refusals in Chinese, its own words kept as a detail", async () => {
    const page = await s.newPage({ locale: 'zh-CN' });
    await s.openLoggedIn('books/upload', page);
    await heading(page, '上传 EPUB');
    const refused = answered(page, '/book/upload');
    await uploadInBrowser(page, 'plain.epub', makeHostileZip('not-a-zip'));
    expect((await refused).status()).toBe(415);
    const alert = alertWith(page, zhCN.errors.epub.NOT_A_ZIP);
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('服务返回：NOT_A_ZIP:');
    expect(text).toContain('请求编号：');
  });

  it('growth from no new users the day before reads "new", not a percentage', async () => {
    const page = s.page;
    await s.openLoggedIn('dashboard');
    const day = page.locator('[data-test=growth] dd').first();
    await day.waitFor();
    const data = await admin.getScreenData({ days: 30 });
    expect(data.lastDay.user).toBe(0);
    expect(data.today.user).toBe(READERS_TODAY.length);
    expect((await day.textContent())?.trim()).toMatch(/^new\b/);
    expect(await day.textContent()).not.toContain('%');
  });

  it("the report window is kept in the dashboard's URL, through a reload", async () => {
    const page = s.page;
    await s.openLoggedIn('dashboard');
    await page.locator('[data-test=growth]').waitFor();
    const week = answered(page, '/screen/data', { days: '7' });
    await choose(page, page.locator('[data-test=days-select]'), 'Last 7 days');
    await week;
    await page.waitForURL(/\/dashboard\?days=7$/);
    const again = answered(page, '/screen/data', { days: '7' });
    await page.reload();
    await again;
    await page.locator('[data-test=days-select]').getByText('Last 7 days').waitFor();
  });

  it('back to the list, and a delete from the edit page, return to the list as it was', async () => {
    const page = s.page;
    await s.openLoggedIn('books?sort=%2Btitle&page=2&pageSize=10');
    await heading(page, 'Books');
    const row = page.locator('[data-test=book-table] .el-table__body tr').first();
    await row.getByText('Feedback Volume 10').waitFor();
    await row.getByRole('link', { name: /^Edit: / }).click();
    await heading(page, 'Edit book');
    await page.getByRole('link', { name: /Back to the list/ }).click();
    await heading(page, 'Books');
    const kept = (url: URL) =>
      url.pathname.endsWith('/books') &&
      url.searchParams.get('sort') === '+title' &&
      url.searchParams.get('page') === '2' &&
      url.searchParams.get('pageSize') === '10';
    await page.waitForURL(kept);

    await row.getByText('Feedback Volume 10').waitFor();
    await row.getByRole('link', { name: /^Edit: / }).click();
    await heading(page, 'Edit book');
    await page.locator('[data-test=delete-book]').click();
    const dialog = page.getByRole('dialog');
    // the confirming button is the dangerous kind
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    expect(await confirm.getAttribute('class')).toContain('el-button--danger');
    await confirm.click();
    await page.waitForURL(kept);
    await row.getByText('Feedback Volume 11').waitFor();
  });

  it('leaving an edit with unsaved changes asks first, in the console and in the browser', async () => {
    const page = s.page;
    await s.openLoggedIn(`books/${alice.fileName}/edit`);
    await heading(page, 'Edit book');
    await page.locator('#edit-publisher').fill('Unsaved Press');

    await page.getByRole('navigation').getByRole('link', { name: 'Books' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(en.edit.unsavedBody).waitFor();
    await dialog.getByRole('button', { name: en.edit.stay }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toMatch(/\/edit$/);
    expect(await page.locator('#edit-publisher').inputValue()).toBe('Unsaved Press');

    // the browser asks too (reload, close): the page declines to unload without a word
    const asked = page.waitForEvent('dialog');
    void page.close({ runBeforeUnload: true });
    const unload = await asked;
    expect(unload.type()).toBe('beforeunload');
    await unload.dismiss();
    expect(page.isClosed()).toBe(false);

    await page.getByRole('navigation').getByRole('link', { name: 'Books' }).click();
    await dialog.getByRole('button', { name: en.edit.leave }).click();
    await heading(page, 'Books');
  });

  it('moving from one edit page to another in the history asks about unsaved changes too', async () => {
    const page = s.page;
    const [other] = (await admin.listBooks({ title: 'Feedback Volume 12' })).data;
    await s.openLoggedIn(`books/${alice.fileName}/edit`);
    await heading(page, 'Edit book');
    // Alice's page, then the list (the newest book first), then that book's page: two steps back is
    // Alice's page again, the same page component given another book
    await page.getByRole('navigation').getByRole('link', { name: 'Books' }).click();
    await heading(page, 'Books');
    await page.getByRole('link', { name: 'Edit: Feedback Volume 12' }).click();
    await page.waitForURL(new RegExp(`/books/${other!.fileName}/edit$`));
    await page.locator('#edit-publisher').fill('Unsaved Press');

    await page.evaluate(() => history.go(-2));
    const dialog = page.getByRole('dialog');
    await dialog.getByText(en.edit.unsavedBody).waitFor();
    await dialog.getByRole('button', { name: en.edit.stay }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForURL(new RegExp(`/books/${other!.fileName}/edit$`));
    expect(await page.locator('#edit-publisher').inputValue()).toBe('Unsaved Press');

    await page.evaluate(() => history.go(-2));
    await dialog.getByRole('button', { name: en.edit.leave }).click();
    await page.waitForURL(new RegExp(`/books/${alice.fileName}/edit$`));
    await page.locator('#edit-title').waitFor();
    expect(await page.locator('#edit-title').inputValue()).toBe(alice.title);
  });

  it('wording and links: one book, links drawn as links, a language column read whole', async () => {
    const page = s.page;
    await s.openLoggedIn('books?title=Volume%2003');
    await heading(page, 'Books');
    await page.locator('[data-test=book-total]').getByText('1 book', { exact: true }).waitFor();
    const header = page.locator('[data-test=book-table] th', { hasText: 'Language' });
    expect((await header.innerText()).trim()).toBe('Language');
    const underlined = (link: Locator) =>
      link.evaluate((el) =>
        [el, ...el.querySelectorAll('*')].some((e) =>
          getComputedStyle(e).textDecorationLine.includes('underline'),
        ),
      );
    expect(await underlined(page.getByRole('link', { name: 'Upload a book' }))).toBe(false);
    await page.getByRole('link', { name: /^Edit: / }).click();
    await heading(page, 'Edit book');
    expect(await underlined(page.getByRole('link', { name: /Back to the list/ }))).toBe(false);
  });
});
