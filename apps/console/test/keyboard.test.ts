import { readFile } from 'node:fs/promises';
import type { FileChooser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { answered, heading } from './support/page-actions';
import { REAL_EPUB } from './support/paths';
import { seedLibrary } from './support/seed';
import { OPERATOR } from './support/services';

interface Focused {
  tag: string;
  id: string;
  text: string;
  label: string;
  name: string;
  /** the outline, or for an Element Plus input the ring its wrapper draws */
  ring: string;
}

const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const style = el ? getComputedStyle(el) : undefined;
    const wrapper = el?.closest('.el-input__wrapper, .el-select__wrapper');
    const outline = style && style.outlineStyle !== 'none' ? `outline ${style.outlineWidth}` : '';
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      id: el?.id ?? '',
      text: el?.textContent?.trim() ?? '',
      label: el?.getAttribute('aria-label') ?? '',
      name: el?.getAttribute('name') ?? '',
      ring: outline || (wrapper ? `shadow ${getComputedStyle(wrapper).boxShadow}` : 'none'),
    };
  });

/** Presses Tab until the focused element is the one wanted (by its text, label or id). */
async function tabTo(page: Page, wanted: (f: Focused) => boolean, max = 80): Promise<Focused> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (wanted(now)) return now;
  }
  throw new Error('not reachable with Tab');
}

/** A 2px outline, or a 2px ring around an input. */
const visible = (f: Focused) =>
  /^outline [2-9]px$/.test(f.ring) || /^shadow .*\b0px 0px 0px [2-9]px/.test(f.ring);

/** The focus is drawn as a keyboard user can see it (once the control's transition has run). */
async function focusShown(page: Page, f: Focused): Promise<void> {
  let now = f;
  for (let i = 0; i < 20 && !visible(now); i++) {
    await page.waitForTimeout(50);
    now = await focused(page);
  }
  expect(visible(now), `${now.tag}#${now.id} "${now.text || now.label}": ${now.ring}`).toBe(true);
}

describe.skipIf(!HAVE_BROWSER)('everything by keyboard alone', () => {
  const s = consoleSuite({ seed: seedLibrary });

  it('login, the menu, the filters, the language and a confirmation, with Tab, Enter and Escape', async () => {
    const page = s.page;
    await page.goto(`${s.services.consoleUrl}login`);
    await page.locator('#login-username').waitFor();
    // the username field has the focus on arrival; the password follows it
    expect((await focused(page)).id).toBe('login-username');
    await page.keyboard.type(OPERATOR.username);
    await page.keyboard.press('Tab');
    expect((await focused(page)).id).toBe('login-password');
    await page.keyboard.type(OPERATOR.password);
    await page.keyboard.press('Enter');
    await heading(page, 'Dashboard');

    // the first Tab offers to skip the header and the menu
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    const skip = await tabTo(page, (f) => f.text === 'Skip to content');
    await focusShown(page, skip);

    const books = await tabTo(page, (f) => f.tag === 'a' && f.text === 'Books');
    await focusShown(page, books);
    await page.keyboard.press('Enter');
    await heading(page, 'Books');

    const title = await tabTo(page, (f) => f.tag === 'input' && f.name === 'title');
    await focusShown(page, title);
    await page.keyboard.type('Volume 2');
    const listed = answered(page, '/book/list', { title: 'Volume 2' });
    await page.keyboard.press('Enter');
    await listed;
    await page
      .locator('[data-test=book-total]')
      .getByText(/^\d+ books$/)
      .waitFor();

    // a confirmation opened and dismissed by keyboard
    const del = await tabTo(page, (f) => f.label.startsWith('Delete: Generated Volume 2'));
    await focusShown(page, del);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // the language, from the header
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    const chinese = await tabTo(page, (f) => f.tag === 'button' && f.text === '中文');
    await focusShown(page, chinese);
    await page.keyboard.press('Enter');
    await heading(page, '图书');
  });

  it('an upload picked from the keyboard', async () => {
    const page = s.page;
    // listening from the start: Chromium's file dialog is intercepted before Enter opens it
    const chooser = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve));
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    const drop = await tabTo(page, (f) => f.text.startsWith('Drop an EPUB file here'));
    await focusShown(page, drop);
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({
      name: 'example-v3.epub',
      mimeType: 'application/epub+zip',
      buffer: await readFile(REAL_EPUB('example-v3.epub')),
    });
    await page.getByRole('heading', { name: 'Parsed book' }).waitFor();
    const create = await tabTo(page, (f) => f.tag === 'button' && f.text === 'Add to catalogue');
    await focusShown(page, create);
  });
});
