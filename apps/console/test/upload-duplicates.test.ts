import { makeEpub } from '@readlib/epub/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.messages';
import { HAVE_BROWSER } from './support/browser';
import { consoleSuite } from './support/console-suite';
import { heading } from './support/page-actions';
import { clients } from './support/seed';
import type { Services } from './support/services';

/** The book already in the catalogue: the oldest of those with "Poems" in the title. */
const SAME = { fileName: 'poems_same', title: 'Poems', author: 'Anonymous', publisher: 'Folio Society' };
/** Newer books of the same author with the title in theirs: more than a page of the list holds. */
const NEWER = 130;

async function seed(s: Services): Promise<void> {
  const { admin } = await clients(s);
  await admin.createBook(SAME);
  for (let i = 1; i <= NEWER; i++)
    await admin.createBook({
      fileName: `poems_${i}`,
      title: `Poems, volume ${i}`,
      author: SAME.author,
      publisher: SAME.publisher,
    });
}

async function upload(page: Page, book: { title: string; author: string; publisher: string }) {
  const epub = makeEpub({
    title: book.title,
    creators: [book.author],
    publisher: book.publisher,
    chapters: [{ title: 'One' }],
  });
  await page
    .locator('[data-test=upload-drop] input[type=file]')
    .setInputFiles({ name: 'upload.epub', mimeType: 'application/epub+zip', buffer: epub });
  await page.getByRole('heading', { name: 'Parsed book' }).waitFor();
}

/** The duplicate checks (their queries) and list requests the page sends from now on. */
function requests(page: Page): { same: URLSearchParams[]; lists: number } {
  const sent = { same: [] as URLSearchParams[], lists: 0 };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/book/same') sent.same.push(url.searchParams);
    if (url.pathname === '/book/list') sent.lists += 1;
  });
  return sent;
}

describe.skipIf(!HAVE_BROWSER)('a duplicate upload in a large catalogue', () => {
  const s = consoleSuite({ seed });

  it('is warned of in one exact request, however many books share the title', async () => {
    const page = s.page;
    const sent = requests(page);
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    await upload(page, SAME);
    const warning = page.locator('[data-test=duplicate-warning]');
    await warning.waitFor();
    expect(await warning.textContent()).toContain(en.upload.duplicate);
    expect(await warning.getByRole('link').getAttribute('href')).toBe(`/console/books/${SAME.fileName}/edit`);
    expect(sent.same.map((q) => Object.fromEntries(q))).toEqual([
      { title: SAME.title, author: SAME.author, publisher: SAME.publisher },
    ]);
    expect(sent.lists).toBe(0);
  });

  it('is not warned of when only the publisher differs', async () => {
    const page = s.page;
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/book/same');
    await s.openLoggedIn('books/upload');
    await heading(page, 'Upload an EPUB');
    await upload(page, { ...SAME, publisher: 'Another House' });
    expect((await (await answered).json()).data).toEqual([]);
    expect(await page.locator('[data-test=duplicate-warning]').count()).toBe(0);
  });
});
