import { makeEpub } from '@readlib/epub/testing';
import type { AdminClient } from '@readlib/sdk';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEXT_FIELDS } from '../src/books/book-form.state';
import { maxLengthOf } from '../src/books/field-rules';
import { en } from '../src/i18n/en.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, heading, logInWithForm } from './support/page-actions';
import { clients } from './support/seed';
import type { Services } from './support/services';

const KEPT = { fileName: 'unsaved_kept', title: 'Kept Volume', author: 'Kim Kept', publisher: 'Old Press' };
const LONG = { fileName: 'unsaved_long', title: 'Long Paste Volume', author: 'Lou Long' };

async function seed(s: Services): Promise<void> {
  const { admin } = await clients(s);
  await admin.createBook(KEPT);
  await admin.createBook(LONG);
}

/** What the browser does when the operator reloads or closes the tab: whether it asked first. */
async function unloadAsks(page: Page): Promise<boolean> {
  // the page either asks (a dialog) or closes without asking: whichever comes first, however slow
  const asked = Promise.race([
    page.waitForEvent('dialog', { timeout: 0 }).then(async (dialog) => {
      expect(dialog.type()).toBe('beforeunload');
      await dialog.dismiss();
      return true;
    }),
    page.waitForEvent('close', { timeout: 0 }).then(() => false),
  ]);
  void page.close({ runBeforeUnload: true });
  const result = await asked;
  if (result) expect(page.isClosed()).toBe(false);
  return result;
}

/** The "Unsaved changes" question asked inside the console, with this text. */
const question = (page: Page, body: string) => page.getByRole('dialog').filter({ hasText: body });

describe.skipIf(!HAVE_BROWSER)('work not yet in the catalogue is not dropped without a word', () => {
  const s = consoleSuite({ seed });
  let admin: AdminClient;
  beforeAll(async () => {
    ({ admin } = await clients(s.services));
  });

  it('a parsed upload: leaving asks first, in the console and in the browser; once added, nothing asks', async () => {
    const page = s.page;
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    const epub = makeEpub({
      title: 'Pending Upload Volume',
      creators: ['Pat Pending'],
      chapters: [{ title: 'One' }],
    });
    await page
      .locator('[data-test=upload-drop] input[type=file]')
      .setInputFiles({ name: 'pending.epub', mimeType: 'application/epub+zip', buffer: Buffer.from(epub) });
    await page.getByRole('heading', { name: 'Parsed book' }).waitFor();
    await page.locator('#upload-title').fill('Pending Upload, renamed');

    await page.getByRole('navigation').getByRole('link', { name: 'Books' }).click();
    const dialog = question(page, en.upload.unsavedBody);
    await dialog.getByText(en.edit.unsavedTitle).waitFor();
    await dialog.getByRole('button', { name: en.edit.stay }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toMatch(/\/books\/upload$/);
    expect(await page.locator('#upload-title').inputValue()).toBe('Pending Upload, renamed');

    expect(await unloadAsks(page), 'the browser asks before a reload or a closed tab').toBe(true);

    // added: the page goes to the list unasked, and nothing is left to ask about
    const created = answered(page, '/book/create');
    await page.locator('[data-test=create-book]').click();
    expect((await created).status()).toBe(200);
    await heading(page, 'Books');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await admin.listBooks({ title: 'Pending Upload, renamed' })).total).toBe(1);
  });

  it('a Save refused because the session ended, the login page chosen over the login in place: the typed values come back after it, and it says so', async () => {
    const page = s.page;
    await s.openLoggedIn(`books/${KEPT.fileName}/edit`);
    await heading(page, 'Edit book');
    await page.locator('#edit-title').fill('Kept Volume, revised');
    await page.locator('#edit-publisher').fill('New Press');
    await page.route('**/book/update', (route) =>
      route.fulfill({ status: 401, json: { code: -2, msg: 'token expired', data: null } }),
    );
    await page.locator('[data-test=save-book]').click();
    await page
      .locator('[data-test=session-dialog]')
      .getByRole('button', { name: en.session.toLoginPage })
      .click();
    await page.waitForURL(/\/console\/login\?redirect=.*&expired=1$/);
    await page.getByText(en.login.expired).waitFor();
    await page.unroute('**/book/update');

    await logInWithForm(page);
    await page.waitForURL(new RegExp(`/books/${KEPT.fileName}/edit$`));
    await page.locator('[data-test=draft-restored]').getByText(en.edit.draftRestored).waitFor();
    expect(await page.locator('#edit-title').inputValue()).toBe('Kept Volume, revised');
    expect(await page.locator('#edit-publisher').inputValue()).toBe('New Press');
    // what the operator did not touch is the book's
    expect(await page.locator('#edit-author').inputValue()).toBe(KEPT.author);

    const saved = answered(page, '/book/update');
    await page.locator('[data-test=save-book]').click();
    expect((await saved).status()).toBe(200);
    await page.locator('[data-test=draft-restored]').waitFor({ state: 'detached' });
    const book = await admin.getBook({ fileName: KEPT.fileName });
    expect([book.title, book.publisher, book.author]).toEqual([
      'Kept Volume, revised',
      'New Press',
      KEPT.author,
    ]);

    // saved: a reload brings back nothing, and asks nothing
    await page.reload();
    await page.locator('#edit-title').waitFor();
    expect(await page.locator('[data-test=draft-restored]').count()).toBe(0);
    expect(await page.locator('#edit-title').inputValue()).toBe('Kept Volume, revised');
  });

  it('a pasted text longer than a field takes is kept whole and refused in words, in every text field', async () => {
    const page = s.page;
    const updates: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/book/update') updates.push(request.url());
    });
    await s.openLoggedIn(`books/${LONG.fileName}/edit`);
    await heading(page, 'Edit book');
    await page.locator('[data-test=advanced-fields]').click();
    await page.getByRole('radio', { name: en.edit.newCategory }).check({ force: true });
    const fields = [
      ...TEXT_FIELDS.map((field) => ({ id: `#edit-${field}`, max: maxLengthOf(field)! })),
      { id: '#edit-new-category', max: maxLengthOf('categoryText')! },
    ];
    for (const { id, max } of fields) {
      const input = page.locator(id);
      await input.fill('');
      await input.focus();
      // as a paste puts it in
      await page.keyboard.insertText('x'.repeat(max + 1));
      expect((await input.inputValue()).length, `${id} keeps what was pasted`).toBe(max + 1);
      const item = page.locator('.el-form-item', { has: input });
      await item
        .locator('.el-form-item__error')
        .getByText(en.edit.tooLong.replace('{max}', String(max)))
        .waitFor();
    }
    await page.locator('[data-test=save-book]').click();
    await page.waitForTimeout(500);
    expect(updates, 'nothing too long is sent').toEqual([]);
  });
});
